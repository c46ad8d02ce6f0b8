import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UploadResult } from '@registry/shared/contracts/file';
import type { Db, Executor, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { sha256Hex } from '../../lib/crypto';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { newStorageKey, type FileStorage } from './file-storage';
import { checkFileType, type UploadPurpose } from './file-type-check';
import { presentUpload } from './file.presenter';
import { findFileInTenant, insertFile, type FileRow } from './file.repository';

export type IncomingFile = { fileName: string; data: Buffer };

export type FileService = ReturnType<typeof createFileService>;

function cleanName(name: string): string {
  // Keep the base name only, without control characters; it is shown, never used as a path.
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (cleaned || 'file').slice(0, 200);
}

export function createFileService(deps: { db: Db; clock: Clock; storage: FileStorage }) {
  const { db, clock, storage } = deps;

  type Checked = IncomingFile & { contentType: string; originalName: string; key: string; id: string };

  async function check(incoming: IncomingFile, purpose: UploadPurpose): Promise<Checked> {
    if (incoming.data.length === 0) throw new AppError(400, ERROR_MESSAGES.noFile);
    const contentType = await checkFileType(incoming.data, incoming.fileName, purpose);
    return {
      ...incoming,
      contentType,
      originalName: cleanName(incoming.fileName),
      key: newStorageKey(),
      id: randomUUID(),
    };
  }

  /** The file row and its `file.upload` audit event, in the caller's transaction. */
  async function record(
    tx: Executor,
    auth: Pick<AuthContext, 'tenantId' | 'userId'>,
    f: Checked,
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
      size: f.data.length,
      sha256: sha256Hex(f.data),
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
     * Stores files all or nothing: every type is checked before anything is written; if storing or the database
     * write fails, the bytes already written are deleted and no row remains.
     */
    async store(
      auth: AuthContext,
      incoming: IncomingFile[],
      purpose: UploadPurpose,
      ctx: AuditContext,
    ): Promise<UploadResult[]> {
      if (incoming.length === 0) throw new AppError(400, ERROR_MESSAGES.noFile);
      const checked: Checked[] = [];
      for (const f of incoming) checked.push(await check(f, purpose));
      const written: string[] = [];
      try {
        for (const f of checked) {
          await storage.put(f.key, f.data);
          written.push(f.key);
        }
        const now = clock.now();
        const rows = await db.transaction(async (tx) => {
          const out: FileRow[] = [];
          for (const f of checked) out.push(await record(tx, auth, f, purpose, ctx, now));
          return out;
        });
        return rows.map(presentUpload);
      } catch (err) {
        await Promise.allSettled(written.map((k) => storage.delete(k)));
        throw err;
      }
    },

    /**
     * Stores one file as part of another change (an import keeps its workbook for tracing): the type is checked and
     * the bytes written, then `work` runs in a transaction that first records the file row and its audit event. If
     * anything fails, the transaction rolls back and the bytes are deleted: nothing remains.
     */
    async storeWithin<T>(
      auth: Pick<AuthContext, 'tenantId' | 'userId'>,
      incoming: IncomingFile,
      purpose: UploadPurpose,
      ctx: AuditContext,
      work: (tx: Tx, file: FileRow) => Promise<T>,
    ): Promise<T> {
      const f = await check(incoming, purpose);
      await storage.put(f.key, f.data);
      try {
        const now = clock.now();
        return await db.transaction(async (tx) => work(tx, await record(tx, auth, f, purpose, ctx, now)));
      } catch (err) {
        await Promise.allSettled([storage.delete(f.key)]);
        throw err;
      }
    },

    async open(auth: AuthContext, id: string): Promise<{ row: FileRow; stream: Readable }> {
      const row = await findFileInTenant(db, auth.tenantId, id);
      const stream = row ? await storage.get(row.storageKey) : undefined;
      if (!row || !stream) throw new AppError(404, ERROR_MESSAGES.fileNotFound);
      return { row, stream };
    },
  };
}
