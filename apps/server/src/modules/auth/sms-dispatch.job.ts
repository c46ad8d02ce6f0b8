import type { Job } from '../../domain/jobs/interval-job';
import { SMS_DISPATCH_QUEUE } from '../../domain/jobs/job-queues';

export const SMS_DISPATCH_JOB = SMS_DISPATCH_QUEUE;
/** How often the messages written inside transactions (notifications) are handed to the gateway. */
const DISPATCH_INTERVAL_SECONDS = 60;

/** A job of the app's queue, scheduled only with a gateway: one process at a time sends the pending messages. */
export function createSmsDispatchJob(deps: { deliverPending(): Promise<unknown> }): Job {
  return {
    name: SMS_DISPATCH_JOB,
    intervalSeconds: DISPATCH_INTERVAL_SECONDS,
    async run() {
      await deps.deliverPending();
    },
  };
}
