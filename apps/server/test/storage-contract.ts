import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidStorageKeyError,
  ObjectTooLargeError,
  StorageNotFoundError,
  bufferStream,
  type ObjectStorage,
} from '../src/lib/storage';

/** An adapter under test, on its own empty root or bucket prefix. */
export type StorageHarness = {
  storage: ObjectStorage;
  /** Writes begun and never finished or cleaned up (local: temporary files; S3: open multipart uploads). */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
};

const MB = 1024 * 1024;

/**
 * A deterministic stream of `total` bytes made on demand in 64 KB chunks: never held whole. `produced` tells how
 * much was asked for, so a test can tell that a writer stopped reading early.
 */
export function generated(total: number, seed = 'registry'): { stream: Readable; produced: () => number } {
  const CHUNK = 64 * 1024;
  // one pseudo-random block, then each chunk is that block stamped with its number: cheap, and no two chunks alike
  const block = Buffer.alloc(CHUNK);
  let h = createHash('sha256').update(seed).digest();
  for (let off = 0; off < CHUNK; off += h.length) {
    h = createHash('sha256').update(h).digest();
    h.copy(block, off);
  }
  let produced = 0;
  let index = 0;
  const stream = new Readable({
    read() {
      if (produced >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(CHUNK, total - produced);
      const chunk = Buffer.from(block.subarray(0, size));
      if (size >= 4) chunk.writeUInt32BE(index++ >>> 0, 0);
      produced += size;
      this.push(chunk);
    },
  });
  return { stream, produced: () => produced };
}

/** The SHA-256 and size of a stream, read to its end without keeping it. */
async function digest(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

async function text(storage: ObjectStorage, key: string): Promise<string> {
  const { stream } = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/**
 * The behaviour every storage adapter promises (lib/storage/storage.ts), run against each of them: the local
 * directory and an S3-compatible server.
 */
export function describeStorageContract(name: string, setup: () => Promise<StorageHarness>): void {
  describe(`object storage contract: ${name}`, () => {
    let h: StorageHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('should give back exactly what was put, with its size and SHA-256, and replace it on a second put', async () => {
      const body = '患者知情同意书 v1';
      const put = await h.storage.put('round/trip.txt', bufferStream(Buffer.from(body)), {
        contentType: 'text/plain',
      });
      expect(put).toEqual({ size: Buffer.byteLength(body), sha256: sha256(body) });
      const got = await h.storage.get('round/trip.txt');
      expect(got.size).toBe(Buffer.byteLength(body));
      if (got.contentType !== undefined) expect(got.contentType).toBe('text/plain');
      got.stream.destroy();
      expect(await text(h.storage, 'round/trip.txt')).toBe(body);
      expect((await h.storage.stat('round/trip.txt'))?.size).toBe(Buffer.byteLength(body));

      await h.storage.put('round/trip.txt', bufferStream(Buffer.from('v2')));
      expect(await text(h.storage, 'round/trip.txt')).toBe('v2');
    });

    it('should stream a 20 MB object in and out without either side holding it whole', async () => {
      const total = 20 * MB;
      const source = generated(total);
      const reference = await digest(generated(total).stream);
      const put = await h.storage.put('large/20mb.bin', source.stream, { maxBytes: total });
      expect(put).toEqual(reference);
      const got = await h.storage.get('large/20mb.bin');
      expect(got.size).toBe(total);
      expect(await digest(got.stream)).toEqual(reference);
    });

    it('should stop a stream as soon as it passes its limit, answer the 413 and leave no object or part', async () => {
      const total = 12 * MB;
      const source = generated(total, 'over the limit');
      const failure = await h.storage.put('limit/big.bin', source.stream, { maxBytes: 6 * MB }).catch((e) => e);
      expect(failure).toBeInstanceOf(ObjectTooLargeError);
      expect(failure.statusCode).toBe(413);
      expect(failure.message).toBe('文件大小超过限制（最大 6 MB）');
      // refused while streaming: the rest of the source was never read
      expect(source.produced()).toBeLessThan(total);
      expect(await h.storage.stat('limit/big.bin')).toBeUndefined();
      await expect(h.storage.get('limit/big.bin')).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await h.leftovers()).toEqual([]);

      // a small object over a small limit (no multipart on S3), and exactly at the limit is allowed
      const small = await h.storage.put('limit/small.bin', generated(5000).stream, { maxBytes: 1000 }).catch((e) => e);
      expect(small).toBeInstanceOf(ObjectTooLargeError);
      expect(await h.storage.stat('limit/small.bin')).toBeUndefined();
      expect((await h.storage.put('limit/exact.bin', generated(1000).stream, { maxBytes: 1000 })).size).toBe(1000);
    });

    it('should keep the object it had when a replacing write fails', async () => {
      await h.storage.put('keep/me.txt', bufferStream(Buffer.from('原件')));
      await expect(h.storage.put('keep/me.txt', generated(7 * MB).stream, { maxBytes: 6 * MB })).rejects.toBeInstanceOf(
        ObjectTooLargeError,
      );
      const broken = new Readable({
        read() {
          this.push(Buffer.alloc(1024, 1));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(h.storage.put('keep/me.txt', broken)).rejects.toThrow(/client went away/);
      expect(await text(h.storage, 'keep/me.txt')).toBe('原件');
      expect(await h.leftovers()).toEqual([]);
    });

    it('should leave nothing of a stream that breaks mid-way', async () => {
      let sent = 0;
      const broken = new Readable({
        read() {
          if (sent >= 7 * MB) {
            this.destroy(new Error('client went away'));
            return;
          }
          sent += 1 * MB;
          this.push(Buffer.alloc(1 * MB, 7));
        },
      });
      await expect(h.storage.put('broken/upload.bin', broken)).rejects.toThrow(/client went away/);
      expect(await h.storage.stat('broken/upload.bin')).toBeUndefined();
      expect(await h.leftovers()).toEqual([]);
    });

    it('should answer a clear not-found for a missing key, and delete idempotently', async () => {
      const missing = await h.storage.get('no/such/object').catch((e) => e);
      expect(missing).toBeInstanceOf(StorageNotFoundError);
      expect(missing.message).toContain('no/such/object');
      expect(await h.storage.stat('no/such/object')).toBeUndefined();
      await h.storage.delete('no/such/object');

      await h.storage.put('gone/soon.txt', bufferStream(Buffer.from('x')));
      expect(await h.storage.stat('gone/soon.txt')).toEqual(expect.objectContaining({ size: 1 }));
      await h.storage.delete('gone/soon.txt');
      await h.storage.delete('gone/soon.txt');
      expect(await h.storage.stat('gone/soon.txt')).toBeUndefined();
      await expect(h.storage.get('gone/soon.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('should list the full keys under a prefix, sorted, page after page, and never a failed write', async () => {
      const keys = [
        '清单/甲/1.json',
        '清单/甲/2.json',
        '清单/甲/子/3.json',
        '清单/乙/4.json',
        '清单/甲乙.json',
        '清单外.json',
      ];
      for (const key of keys) await h.storage.put(key, bufferStream(Buffer.from(key)));
      await expect(h.storage.put('清单/甲/坏.json', generated(5000).stream, { maxBytes: 10 })).rejects.toBeInstanceOf(
        ObjectTooLargeError,
      );
      expect(await h.storage.list('清单/甲/')).toEqual(['清单/甲/1.json', '清单/甲/2.json', '清单/甲/子/3.json']);
      // a plain string match: `清单/甲` also finds `清单/甲乙.json`
      expect(await h.storage.list('清单/甲')).toEqual([
        '清单/甲/1.json',
        '清单/甲/2.json',
        '清单/甲/子/3.json',
        '清单/甲乙.json',
      ]);
      expect(await h.storage.list('清单')).toEqual([...keys].sort());
      expect(await h.storage.list('')).toEqual(expect.arrayContaining(keys));
      expect(await h.storage.list('清单/没有/')).toEqual([]);
      await h.storage.delete('清单/甲/2.json');
      expect(await h.storage.list('清单/甲/')).toEqual(['清单/甲/1.json', '清单/甲/子/3.json']);
      for (const key of await h.storage.list('清单/甲/')) expect(await text(h.storage, key)).toBe(key);
      for (const bad of ['../', 'a//', '/abs/', 'a/../b/']) {
        await expect(h.storage.list(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      }
    });

    it('should keep keys with Chinese characters, spaces and slashes apart and refuse keys that are paths out', async () => {
      const keys = ['病历/2024年/张三 出院小结.pdf', '病历/2024年/李四 出院小结.pdf', '病历.pdf', 'a+b=c&d/e%20f?g#h'];
      for (const key of keys) await h.storage.put(key, bufferStream(Buffer.from(`内容：${key}`)));
      for (const key of keys) expect(await text(h.storage, key)).toBe(`内容：${key}`);
      await h.storage.delete(keys[0]!);
      expect(await h.storage.stat(keys[0]!)).toBeUndefined();
      expect(await text(h.storage, keys[1]!)).toBe(`内容：${keys[1]}`);

      for (const bad of ['', '../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/', 'a\\b', 'nul\u0000']) {
        await expect(h.storage.put(bad, bufferStream(Buffer.from('x')))).rejects.toBeInstanceOf(InvalidStorageKeyError);
        await expect(h.storage.get(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      }
    });
  });
}
