import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { bufferStream, StorageNotFoundError, type ObjectStorage } from '../../lib/storage';
import type { SealHead } from './audit-seal-mac';

/**
 * Where the newest signed head of each chain is kept OUTSIDE the database: what shows that the newest sealed events
 * were removed together with their seals and head rows (ADR 0013). The app keeps them on the object storage that all
 * its instances share (`createStorageHeadStore`); the file store is where earlier versions kept them, read once at
 * the start to carry them over (`copyHeads`).
 */
export type HeadStore = {
  /** Keeps the head unless the stored one is as new or newer (a late writer never moves a head back). */
  write(head: SealHead): Promise<void>;
  /** The stored head of a chain, null when there is none; throws when it cannot be read as a head. */
  read(tenantKey: string): Promise<SealHead | null>;
  /** The chains with a stored head. */
  list(): Promise<string[]>;
};

const TENANT_KEY = /^(-|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function fileName(tenantKey: string): string {
  if (!TENANT_KEY.test(tenantKey)) throw new Error(`not a chain key: ${tenantKey}`);
  return `${tenantKey}.json`;
}

function serialiseHead(head: SealHead): string {
  return `${JSON.stringify({ ...head, signedAt: head.signedAt.toISOString() }, null, 2)}\n`;
}

function parseHead(text: string, tenantKey: string): SealHead {
  const h = JSON.parse(text) as Partial<Record<keyof SealHead, unknown>>;
  const signedAt = new Date(String(h.signedAt));
  if (
    h.tenantKey !== tenantKey ||
    typeof h.seq !== 'number' ||
    !Number.isSafeInteger(h.seq) ||
    typeof h.mac !== 'string' ||
    typeof h.signature !== 'string' ||
    Number.isNaN(signedAt.getTime())
  )
    throw new Error(`malformed audit head of ${tenantKey}`);
  return { tenantKey, seq: h.seq, mac: h.mac, signedAt, signature: h.signature };
}

/** The head store in `<dataDir>/audit-heads/<tenant_key>.json`, each written whole (temporary file, fsync, rename). */
export function createFileHeadStore(dataDir: string): HeadStore {
  const dir = path.join(dataDir, 'audit-heads');

  async function read(tenantKey: string): Promise<SealHead | null> {
    let text: string;
    try {
      text = await readFile(path.join(dir, fileName(tenantKey)), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return parseHead(text, tenantKey);
  }

  return {
    read,

    async write(head) {
      const file = path.join(dir, fileName(head.tenantKey));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const current = await read(head.tenantKey).catch(() => null);
      if (current && current.seq >= head.seq) return;
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await open(tmp, 'wx', 0o600);
      try {
        await handle.writeFile(serialiseHead(head), 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
    },

    async list() {
      try {
        return (await readdir(dir))
          .filter((f) => f.endsWith('.json'))
          .map((f) => f.slice(0, -'.json'.length))
          .filter((k) => TENANT_KEY.test(k));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
    },
  };
}

/**
 * The storage's folder of the heads: `audit-heads/<tenant_key>.json`. The files' objects are `<two characters>/<key>`
 * and never meet it; whatever sweeps the storage for objects without a `files` row must leave this folder alone.
 */
export const HEAD_PREFIX = 'audit-heads/';
/** A head is some 300 bytes: a larger object under its key is not one, and is not read whole. */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * The head store on the object storage (STORAGE_DRIVER), under `audit-heads/<tenant_key>.json`: every instance of the
 * app writes and reads the same heads, whichever of them ran the sealer. Each head is one object, replaced whole (a
 * reader sees the old head or the new one). The read before a write keeps a head from moving back when a late
 * writer comes after a newer one; two writers at the very same moment may still leave the older head, which only
 * lags (verification accepts a head behind the chain, as after a failed write) until the next seal.
 */
export function createStorageHeadStore(storage: ObjectStorage): HeadStore {
  async function read(tenantKey: string): Promise<SealHead | null> {
    const key = `${HEAD_PREFIX}${fileName(tenantKey)}`;
    let stored;
    try {
      stored = await storage.get(key);
    } catch (err) {
      if (err instanceof StorageNotFoundError) return null;
      throw err;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stored.stream) {
        size += (chunk as Buffer).length;
        if (size > MAX_HEAD_BYTES) throw new Error(`malformed audit head of ${tenantKey}`);
        chunks.push(chunk as Buffer);
      }
    } finally {
      stored.stream.destroy();
    }
    return parseHead(Buffer.concat(chunks).toString('utf8'), tenantKey);
  }

  return {
    read,

    async write(head) {
      const key = `${HEAD_PREFIX}${fileName(head.tenantKey)}`;
      const current = await read(head.tenantKey).catch(() => null);
      if (current && current.seq >= head.seq) return;
      await storage.put(key, bufferStream(Buffer.from(serialiseHead(head), 'utf8')), {
        contentType: 'application/json',
      });
    },

    async list() {
      return (await storage.list(HEAD_PREFIX))
        .map((k) => k.slice(HEAD_PREFIX.length))
        .filter((name) => name.endsWith('.json'))
        .map((name) => name.slice(0, -'.json'.length))
        .filter((k) => TENANT_KEY.test(k));
    },
  };
}

/**
 * Carries the heads of one store into another (the heads earlier versions kept in `DATA_DIR/audit-heads` onto the
 * object storage): each readable head is written, which never moves the target's head back, so it can run at every
 * start of every instance. Answers the chains whose head it offered; unreadable ones are left where they are.
 */
export async function copyHeads(from: HeadStore, to: HeadStore): Promise<string[]> {
  const copied: string[] = [];
  for (const tenantKey of await from.list()) {
    const head = await from.read(tenantKey).catch(() => null);
    if (!head) continue;
    await to.write(head);
    copied.push(tenantKey);
  }
  return copied;
}
