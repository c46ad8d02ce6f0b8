import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { SealHead } from './audit-seal-mac';

/**
 * Where the newest signed head of each chain is kept OUTSIDE the database: what shows that the newest sealed events
 * were removed together with their seals and head rows (ADR 0013). One small interface, so it can move to object
 * storage with its own credentials.
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
      const body = { ...head, signedAt: head.signedAt.toISOString() };
      const handle = await open(tmp, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(body, null, 2)}\n`, 'utf8');
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
