import type { Db } from '../../db/client';
import type { Job } from '../../domain/jobs/interval-job';
import { EXPORT_EXPIRY_QUEUE } from '../../domain/jobs/job-queues';
import type { Clock } from '../../lib/clock';
import type { ObjectStorage } from '../../lib/storage';
import { expiredExports, updateExportJob } from './export.repository';

const BATCH = 200;

/**
 * Every hour: the files of completed exports past their expiry are removed from the object storage and the exports
 * marked expired (the history keeps them, with their row count and checksum). The file goes first: a run that dies in
 * between finds the export again and the removal of a missing object is no error.
 */
export function createExportExpiryJob(deps: { db: Db; clock: Clock; storage: ObjectStorage }): Job {
  return {
    name: EXPORT_EXPIRY_QUEUE,
    intervalSeconds: 60 * 60,
    async run() {
      for (;;) {
        const batch = await expiredExports(deps.db, deps.clock.now(), BATCH);
        for (const row of batch) {
          if (row.fileKey) await deps.storage.delete(row.fileKey);
          await updateExportJob(deps.db, row.id, ['completed'], { state: 'expired', fileKey: null });
        }
        if (batch.length < BATCH) return;
      }
    },
  };
}
