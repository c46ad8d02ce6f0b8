import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalFileStorage, newStorageKey } from './file-storage';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'registry-storage-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('local file storage', () => {
  it('should store bytes and streams under random keys and read them back', async () => {
    const storage = createLocalFileStorage(root);
    const a = newStorageKey();
    const b = newStorageKey();
    expect(a).not.toBe(b);
    await storage.put(a, Buffer.from('病历扫描件'));
    await storage.put(b, Readable.from(['化验', '单']));
    expect(await text((await storage.get(a))!)).toBe('病历扫描件');
    expect(await text((await storage.get(b))!)).toBe('化验单');
  });

  it('should answer undefined for a missing key and delete idempotently', async () => {
    const storage = createLocalFileStorage(root);
    const key = newStorageKey();
    expect(await storage.get(key)).toBeUndefined();
    await storage.put(key, Buffer.from('x'));
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
  });

  it('should refuse keys that could escape the directory', async () => {
    const storage = createLocalFileStorage(root);
    await expect(storage.put('../../etc/passwd', Buffer.from('x'))).rejects.toThrow(/invalid storage key/);
    await expect(storage.get('../secret')).rejects.toThrow(/invalid storage key/);
  });

  it('should leave no partial file when a stream fails', async () => {
    const storage = createLocalFileStorage(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.from('part'));
        this.destroy(new Error('client went away'));
      },
    });
    const key = newStorageKey();
    await expect(storage.put(key, failing)).rejects.toThrow(/client went away/);
    const dirs = await readdir(root);
    const files = (await Promise.all(dirs.map((d) => readdir(path.join(root, d))))).flat();
    expect(files).toEqual([]);
  });
});
