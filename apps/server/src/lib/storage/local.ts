import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../crypto';
import {
  checkStorageKey,
  InvalidStorageKeyError,
  MeteredStream,
  StorageNotFoundError,
  type ObjectInfo,
  type ObjectStorage,
} from './storage';

/** Writes in progress, inside the root so that the final rename stays on one file system (and is atomic). */
const INCOMING = '.incoming';

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/**
 * Objects as files under `root`, a key's segments as its path. A write goes to a temporary file in `root/.incoming`,
 * flushed, then renamed into place: a reader sees the whole old object or the whole new one, never a part.
 */
export function createLocalStorage(root: string): ObjectStorage {
  const resolved = path.resolve(root);
  const where = (key: string) => {
    const segments = checkStorageKey(key);
    if (segments[0] === INCOMING) throw new InvalidStorageKeyError(key, `"${INCOMING}" is reserved`);
    return path.join(resolved, ...segments);
  };

  async function statFile(target: string): Promise<ObjectInfo | undefined> {
    try {
      const s = await stat(target);
      return s.isFile() ? { size: s.size } : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  return {
    driver: 'local',

    async put(key, body, options = {}) {
      const target = where(key);
      const incoming = path.join(resolved, INCOMING);
      await mkdir(incoming, { recursive: true });
      const temp = path.join(incoming, `${randomToken(12)}.part`);
      const meter = new MeteredStream(options.maxBytes);
      try {
        await pipeline(body, meter, createWriteStream(temp, { flags: 'wx', flush: true }));
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temp, target);
        return meter.result();
      } catch (err) {
        await rm(temp, { force: true });
        throw meter.tooLarge ?? err;
      }
    },

    async get(key) {
      const target = where(key);
      let handle;
      try {
        handle = await open(target, 'r');
      } catch (err) {
        if (isMissing(err)) throw new StorageNotFoundError(key);
        throw err;
      }
      try {
        const s = await handle.stat();
        if (!s.isFile()) throw new StorageNotFoundError(key);
        // the open handle reads the object even if a new version is renamed over it meanwhile
        return { size: s.size, stream: handle.createReadStream() as Readable };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async stat(key) {
      return statFile(where(key));
    },

    async delete(key) {
      try {
        await unlink(where(key));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },

    close() {},
  };
}
