import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UploadResult } from '@registry/shared/contracts/file';
import type { Db } from '../../db/client';
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
      const checked: (IncomingFile & { contentType: string; originalName: string; key: string; id: string })[] = [];
      for (const f of incoming) {
        if (f.data.length === 0) throw new AppError(400, ERROR_MESSAGES.noFile);
        const contentType = await checkFileType(f.data, f.fileName, purpose);
        checked.push({
          ...f,
          contentType,
          originalName: cleanName(f.fileName),
          key: newStorageKey(),
          id: randomUUID(),
        });
      }
      const written: string[] = [];
      try {
        for (const f of checked) {
          await storage.put(f.key, f.data);
          written.push(f.key);
        }
        const now = clock.now();
        const rows = await db.transaction(async (tx) => {
          const out: FileRow[] = [];
          for (const f of checked) {
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
                newValue: {
                  name: row.originalName,
                  size: row.size,
                  contentType: row.contentType,
                  purpose,
                  sha256: row.sha256,
                },
              },
              now,
            );
            out.push(row);
          }
          return out;
        });
        return rows.map(presentUpload);
      } catch (err) {
        await Promise.allSettled(written.map((k) => storage.delete(k)));
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
