import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Job } from '../../domain/jobs/interval-job';
import { purgeExpiredSignInData } from './auth.repository';

export const SIGN_IN_PURGE_JOB = 'auth.sign-in-purge';
/** How often expired captchas, SMS and QR codes and long-dead sessions are deleted. */
const PURGE_INTERVAL_SECONDS = 60 * 60;

/** A durable job of the app's runner: one process at a time deletes what sign-in left behind a day after it expired. */
export function createSignInPurgeJob(deps: { db: Db; clock: Clock }): Job {
  return {
    name: SIGN_IN_PURGE_JOB,
    intervalSeconds: PURGE_INTERVAL_SECONDS,
    async run() {
      await purgeExpiredSignInData(deps.db, deps.clock.now());
    },
  };
}
