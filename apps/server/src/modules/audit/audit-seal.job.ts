import type { Db } from '../../db/client';
import type { AuditSealKey } from '../../lib/audit-seal-key';
import type { Clock } from '../../lib/clock';
import type { Job } from '../../domain/jobs/interval-job';
import { AUDIT_SEAL_QUEUE } from '../../domain/jobs/job-queues';
import type { HeadStore } from './audit-head-store';
import { sealPending } from './audit-seal.service';

export const AUDIT_SEAL_JOB = AUDIT_SEAL_QUEUE;

/** The sealer as a durable job: each run seals what can be sealed (`sealPending`). */
export function createAuditSealJob(deps: {
  db: Db;
  clock: Clock;
  key: AuditSealKey;
  heads: HeadStore;
  intervalSeconds: number;
}): Job {
  return {
    name: AUDIT_SEAL_JOB,
    intervalSeconds: deps.intervalSeconds,
    async run() {
      await sealPending(deps.db, deps.key, deps.clock, deps.heads);
    },
  };
}
