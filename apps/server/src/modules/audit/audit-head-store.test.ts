import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, startS3Server } from '../../../test/s3-server';
import { bufferStream, createLocalStorage, createS3Storage } from '../../lib/storage';
import { copyHeads, createFileHeadStore, createStorageHeadStore, type HeadStore } from './audit-head-store';
import type { SealHead } from './audit-seal-mac';

/** A head store under test, on its own empty directory or bucket prefix. */
type Harness = {
  heads: HeadStore;
  /** Puts raw text where the store keeps the head file `name` (`<tenant_key>.json`). */
  writeRaw(name: string, text: string): Promise<void>;
  close(): Promise<void>;
};

const head = (tenantKey: string, seq: number): SealHead => ({
  tenantKey,
  seq,
  mac: `mac-${seq}`,
  signedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
  signature: `sig-${seq}`,
});

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'registry-heads-'));
}

function describeHeadStore(name: string, setup: () => Promise<Harness>): void {
  describe(`audit head store: ${name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('should give back the head it keeps, list its chain, and answer null for a chain without one', async () => {
      const chain = randomUUID();
      expect(await h.heads.read(chain)).toBeNull();
      await h.heads.write(head(chain, 3));
      expect(await h.heads.read(chain)).toEqual(head(chain, 3));
      await h.heads.write(head('-', 1));
      expect(await h.heads.read('-')).toEqual(head('-', 1));
      expect(await h.heads.list()).toEqual(expect.arrayContaining([chain, '-']));
    });

    it('should never move a head back: an older head written late leaves the newer one', async () => {
      const chain = randomUUID();
      await h.heads.write(head(chain, 5));
      await h.heads.write(head(chain, 3));
      await h.heads.write(head(chain, 5));
      expect(await h.heads.read(chain)).toEqual(head(chain, 5));
      await h.heads.write(head(chain, 8));
      expect(await h.heads.read(chain)).toEqual(head(chain, 8));
    });

    it('should refuse what is not a chain key, and a stored head that is not one', async () => {
      for (const bad of ['../etc', 'abc', `${randomUUID()}/x`, randomUUID().toUpperCase()]) {
        await expect(h.heads.read(bad)).rejects.toThrow(/not a chain key/);
        await expect(h.heads.write(head(bad, 1))).rejects.toThrow(/not a chain key/);
      }
      const [garbled, foreign, noSeq] = [randomUUID(), randomUUID(), randomUUID()];
      await h.writeRaw(`${garbled}.json`, '{"seq":');
      await expect(h.heads.read(garbled)).rejects.toThrow();
      // a head copied from another chain's file is not this chain's head
      await h.writeRaw(`${foreign}.json`, JSON.stringify({ ...head(randomUUID(), 2), signedAt: '2026-01-01' }));
      await expect(h.heads.read(foreign)).rejects.toThrow(/malformed audit head/);
      await h.writeRaw(`${noSeq}.json`, JSON.stringify({ ...head(noSeq, 2), seq: '2' }));
      await expect(h.heads.read(noSeq)).rejects.toThrow(/malformed audit head/);
      // names that are no chain's are not listed
      await h.writeRaw('notes.txt', 'x');
      await h.writeRaw('abc.json', '{}');
      const listed = await h.heads.list();
      expect(listed).toEqual(expect.arrayContaining([garbled, foreign, noSeq]));
      expect(listed).not.toContain('abc');
      expect(listed.every((k) => k === '-' || /^[0-9a-f-]{36}$/.test(k))).toBe(true);
    });
  });
}

describeHeadStore('files in DATA_DIR/audit-heads (earlier versions)', async () => {
  const dir = await tempDir();
  return {
    heads: createFileHeadStore(dir),
    async writeRaw(name, text) {
      await mkdir(path.join(dir, 'audit-heads'), { recursive: true });
      await writeFile(path.join(dir, 'audit-heads', name), text);
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

describeHeadStore('object storage, local directory', async () => {
  const dir = await tempDir();
  const storage = createLocalStorage(dir);
  return {
    heads: createStorageHeadStore(storage),
    writeRaw: async (name, text) => {
      await storage.put(`audit-heads/${name}`, bufferStream(Buffer.from(text)));
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

describeHeadStore('object storage, S3 (s3rver) under a prefix', async () => {
  const server = await startS3Server();
  const storage = createS3Storage({
    endpoint: server.endpoint,
    region: server.region,
    bucket: server.bucket,
    ...S3RVER_CREDENTIALS,
    forcePathStyle: true,
    prefix: 'registry/',
  });
  return {
    heads: createStorageHeadStore(storage),
    writeRaw: async (name, text) => {
      await storage.put(`audit-heads/${name}`, bufferStream(Buffer.from(text)));
    },
    close: async () => {
      storage.close();
      await server.close();
    },
  };
});

describe('carrying the heads of DATA_DIR/audit-heads onto the object storage', () => {
  it('should copy each readable head, keep a newer head already there, and leave an unreadable one', async () => {
    const dataDir = await tempDir();
    const storageDir = await tempDir();
    try {
      const files = createFileHeadStore(dataDir);
      const storage = createStorageHeadStore(createLocalStorage(storageDir));
      const [onlyInFiles, newerInStorage, unreadable] = [randomUUID(), randomUUID(), randomUUID()];
      await files.write(head(onlyInFiles, 4));
      await files.write(head(newerInStorage, 2));
      await storage.write(head(newerInStorage, 6));
      await writeFile(path.join(dataDir, 'audit-heads', `${unreadable}.json`), 'not json');

      expect((await copyHeads(files, storage)).sort()).toEqual([newerInStorage, onlyInFiles].sort());
      expect(await storage.read(onlyInFiles)).toEqual(head(onlyInFiles, 4));
      expect(await storage.read(newerInStorage)).toEqual(head(newerInStorage, 6));
      expect(await storage.read(unreadable)).toBeNull();
      // again at the next start: nothing changes
      await copyHeads(files, storage);
      expect((await storage.list()).sort()).toEqual([newerInStorage, onlyInFiles].sort());
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(storageDir, { recursive: true, force: true });
    }
  });
});
