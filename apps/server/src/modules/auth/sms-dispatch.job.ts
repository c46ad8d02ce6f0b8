import type { Job } from '../scheduler/job-runner';

export const SMS_DISPATCH_JOB = 'sms.dispatch';
/** How often the messages written inside transactions (notifications) are handed to the gateway. */
const DISPATCH_INTERVAL_SECONDS = 60;

/** A durable job of the app's runner, there only with a gateway: one process at a time sends the pending messages. */
export function createSmsDispatchJob(deps: { deliverPending(): Promise<unknown> }): Job {
  return {
    name: SMS_DISPATCH_JOB,
    intervalSeconds: DISPATCH_INTERVAL_SECONDS,
    async run() {
      await deps.deliverPending();
    },
  };
}
