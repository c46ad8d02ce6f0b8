import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../../lib/crypto';

/** Where uploaded bytes live. The local directory is the default; an S3-compatible store is another adapter. */
export type FileStorage = {
  /** Writes the whole content under the key, or nothing (a failed write leaves no file). */
  put(key: string, data: Buffer | Readable): Promise<void>;
  get(key: string): Promise<Readable | undefined>;
  delete(key: string): Promise<void>;
};

/** A new random storage key; original file names are never used as paths. */
export function newStorageKey(): string {
  return randomToken(24);
}

const KEY = /^[A-Za-z0-9_-]{16,64}$/;

export function createLocalFileStorage(root: string): FileStorage {
  const where = (key: string) => {
    if (!KEY.test(key)) throw new Error('invalid storage key');
    return path.join(root, key.slice(0, 2), key);
  };
  return {
    async put(key, data) {
      const target = where(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${randomToken(6)}.part`;
      try {
        if (Buffer.isBuffer(data)) await writeFile(temp, data, { flag: 'wx' });
        else await pipeline(data, createWriteStream(temp, { flags: 'wx' }));
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },
    async get(key) {
      const target = where(key);
      try {
        await stat(target);
      } catch {
        return undefined;
      }
      return createReadStream(target);
    },
    async delete(key) {
      await rm(where(key), { force: true });
    },
  };
}
