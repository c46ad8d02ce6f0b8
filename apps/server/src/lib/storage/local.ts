import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../crypto';
import {
  checkStorageKey,
  checkStoragePrefix,
  InvalidStorageKeyError,
  MeteredStream,
  StorageNotFoundError,
  type ObjectInfo,
  type ObjectStorage,
} from './storage';

/** Writes in progress, inside the root so that the final rename stays on one file system (and is atomic). */
const INCOMING = '.incoming';
/** A temporary file this old belongs to a write that a crash or kill cut short: no write lasts a day. */
const STALE_MS = 24 * 60 * 60 * 1000;

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/**
 * Objects as files under `root`, a key's segments as its path. A write goes to a temporary file in `root/.incoming`,
 * flushed, then renamed into place: a reader sees the whole old object or the whole new one, never a part. Several
 * processes may share the directory.
 */
export function createLocalStorage(root: string): ObjectStorage {
  const resolved = path.resolve(root);
  const incoming = path.join(resolved, INCOMING);
  let swept: Promise<void> | undefined;

  /** Once per process, at the first write: removes what writes cut short by a crash left in `.incoming`. */
  async function sweep(): Promise<void> {
    const names = await readdir(incoming).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(incoming, name);
      const s = await stat(file).catch(() => undefined);
      if (s && Date.now() - s.mtimeMs > STALE_MS) await rm(file, { force: true }).catch(() => undefined);
    }
  }

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
      swept ??= sweep();
      await swept;
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

    async list(prefix) {
      const folder = checkStoragePrefix(prefix);
      if (folder[0] === INCOMING) return [];
      const keys: string[] = [];
      const walk = async (segments: string[]): Promise<void> => {
        let entries;
        try {
          entries = await readdir(path.join(resolved, ...segments), { withFileTypes: true });
        } catch (err) {
          if (isMissing(err)) return;
          throw err;
        }
        for (const entry of entries) {
          // writes under way live in the work folder, never beside the objects
          if (segments.length === 0 && entry.name === INCOMING) continue;
          const next = [...segments, entry.name];
          if (entry.isDirectory()) await walk(next);
          else if (entry.isFile()) {
            const key = next.join('/');
            if (key.startsWith(prefix)) keys.push(key);
          }
        }
      };
      await walk(folder);
      return keys.sort();
    },

    close() {},
  };
}
