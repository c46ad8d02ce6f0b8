import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { UploadResult } from '@registry/shared/contracts/file';
import type { Db, Executor, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { StorageNotFoundError, type ObjectStorage } from '../../lib/storage';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { fileObjectKey, newStorageKey } from './file-storage';
import { checkFileType, type UploadPurpose } from './file-type-check';
import { presentUpload } from './file.presenter';
import { findFileInTenant, insertFile, type FileRow } from './file.repository';

/** An upload as it arrives: its bytes are read once, as they stream to the storage. */
export type IncomingFile = { fileName: string; stream: Readable };

/**
 * How much of a file its type is decided from (magic numbers; an Office file's first zip entries). A smaller file is
 * checked whole.
 */
const TYPE_SAMPLE_BYTES = 64 * 1024;

/**
 * The first `bytes` of a stream, and the whole stream again (those bytes, then the rest, not yet read) to store.
 * Only the sample is held in memory.
 */
async function readHead(stream: Readable, bytes: number): Promise<{ head: Buffer; body: Readable }> {
  const it: AsyncIterator<Buffer | string> = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes) {
    const next = await it.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(chunk);
    length += chunk.length;
  }
  const head = Buffer.concat(chunks);
  async function* all() {
    yield head;
    if (ended) return;
    for (;;) {
      const next = await it.next();
      if (next.done) {
        ended = true;
        return;
      }
      yield next.value;
    }
  }
  const body = Readable.from(all(), { objectMode: false });
  // a body never read (the type was refused) still releases its source
  body.once('close', () => {
    if (!ended) stream.destroy();
  });
  return { head, body };
}

export type FileService = ReturnType<typeof createFileService>;

function cleanName(name: string): string {
  // Keep the base name only, without control characters; it is shown, never used as a path.
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (cleaned || 'file').slice(0, 200);
}

export function createFileService(deps: {
  db: Db;
  clock: Clock;
  storage: ObjectStorage;
  /** The size limit of one file (UPLOAD_MAX_BYTES), enforced while it streams to the storage. */
  maxBytes: number;
}) {
  const { db, clock, storage, maxBytes } = deps;

  type Stored = {
    contentType: string;
    originalName: string;
    key: string;
    id: string;
    size: number;
    sha256: string;
  };

  /**
   * Checks the type from the file's first bytes, then streams it to the storage within the size limit. Nothing is
   * written for a refused type; a file over the limit or a broken stream leaves no object.
   */
  async function put(incoming: IncomingFile, purpose: UploadPurpose): Promise<Stored> {
    const { head, body } = await readHead(incoming.stream, TYPE_SAMPLE_BYTES);
    let contentType: string;
    try {
      if (head.length === 0) throw new AppError(400, ERROR_MESSAGES.noFile);
      contentType = await checkFileType(head, incoming.fileName, purpose);
    } catch (err) {
      body.destroy();
      throw err;
    }
    const key = newStorageKey();
    let written;
    try {
      written = await storage.put(fileObjectKey(key), body, { maxBytes, contentType });
    } finally {
      // an adapter that failed before reading everything must not leave the upload's stream waiting
      body.destroy();
    }
    const { size, sha256 } = written;
    return { contentType, originalName: cleanName(incoming.fileName), key, id: randomUUID(), size, sha256 };
  }

  /** The file row and its `file.upload` audit event, in the caller's transaction. */
  async function record(
    tx: Executor,
    auth: Pick<AuthContext, 'tenantId' | 'userId'>,
    f: Stored,
    purpose: UploadPurpose,
    ctx: AuditContext,
    now: Date,
  ): Promise<FileRow> {
    const row = await insertFile(tx, {
      id: f.id,
      tenantId: auth.tenantId,
      ownerId: auth.userId,
      storageKey: f.key,
      originalName: f.originalName,
      contentType: f.contentType,
      size: f.size,
      sha256: f.sha256,
      purpose,
      createdAt: now,
    });
    await audit(
      tx,
      ctx,
      {
        action: 'file.upload',
        entityType: 'file',
        entityId: row.id,
        newValue: { name: row.originalName, size: row.size, contentType: row.contentType, purpose, sha256: row.sha256 },
      },
      now,
    );
    return row;
  }

  return {
    /**
     * Stores files all or nothing, each streamed to the storage as it arrives (after its type is checked); if a
     * later file is refused, or storing or the database write fails, the objects already written are deleted and no
     * row remains.
     */
    async store(
      auth: AuthContext,
      incoming: Iterable<IncomingFile> | AsyncIterable<IncomingFile>,
      purpose: UploadPurpose,
      ctx: AuditContext,
    ): Promise<UploadResult[]> {
      const stored: Stored[] = [];
      try {
        for await (const f of incoming) stored.push(await put(f, purpose));
        if (stored.length === 0) throw new AppError(400, ERROR_MESSAGES.noFile);
        const now = clock.now();
        const rows = await db.transaction(async (tx) => {
          const out: FileRow[] = [];
          for (const f of stored) out.push(await record(tx, auth, f, purpose, ctx, now));
          return out;
        });
        return rows.map(presentUpload);
      } catch (err) {
        await Promise.allSettled(stored.map((f) => storage.delete(fileObjectKey(f.key))));
        throw err;
      }
    },

    /**
     * Stores one file as part of another change (an import keeps its workbook for tracing): the type is checked and
     * the bytes streamed to the storage, then `work` runs in a transaction that first records the file row and its audit event. If
     * anything fails, the transaction rolls back and the bytes are deleted: nothing remains.
     */
    async storeWithin<T>(
      auth: Pick<AuthContext, 'tenantId' | 'userId'>,
      incoming: IncomingFile,
      purpose: UploadPurpose,
      ctx: AuditContext,
      work: (tx: Tx, file: FileRow) => Promise<T>,
    ): Promise<T> {
      const f = await put(incoming, purpose);
      try {
        const now = clock.now();
        return await db.transaction(async (tx) => work(tx, await record(tx, auth, f, purpose, ctx, now)));
      } catch (err) {
        await Promise.allSettled([storage.delete(fileObjectKey(f.key))]);
        throw err;
      }
    },

    /** The file row and its bytes as a stream from the storage (any instance's: the row says where they are). */
    async open(auth: AuthContext, id: string): Promise<{ row: FileRow; stream: Readable }> {
      const row = await findFileInTenant(db, auth.tenantId, id);
      if (!row) throw new AppError(404, ERROR_MESSAGES.fileNotFound);
      try {
        const { stream } = await storage.get(fileObjectKey(row.storageKey));
        return { row, stream };
      } catch (err) {
        if (err instanceof StorageNotFoundError) throw new AppError(404, ERROR_MESSAGES.fileNotFound);
        throw err;
      }
    },
  };
}
