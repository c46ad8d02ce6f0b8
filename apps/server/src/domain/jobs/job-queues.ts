/**
 * The application's job queues (ADR 0014): name, retry policy and expiry. This list is what the migration step
 * installs as the database owner (src/db/job-queue-schema.ts): creating a queue makes a table, which the app's own
 * role may not do, so every queue a deployment runs must be listed here. The modules that own a job keep its handler
 * (modules/jobs registers it); a queue used only by tests is created when its app starts on an owner connection.
 */
export type JobQueuePolicy = {
  name: string;
  /** Retries after the first attempt before the job fails for good and is copied to its dead-letter queue. */
  retryLimit: number;
  /** Seconds before the first retry; with `retryBackoff` the delay doubles each time (with jitter). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /**
   * How long one attempt may stay active. A worker that died mid-job leaves it active: maintenance then fails it by
   * timeout and it is retried (another process picks it up). Also the longest a handler may run in-process.
   */
  expireInSeconds: number;
};

/** The dead-letter queue of a queue: a job that failed its last retry is copied there (data and error). */
export function deadLetterOf(queue: string): string {
  return `${queue}__dead`;
}

/** A queue name: letters, digits, `.`, `_` and `-` (pg-boss names a queue's table by its hash, so any of these fit). */
export const QUEUE_NAME = /^[A-Za-z0-9._-]{1,100}$/;

export const FOLLOWUP_REMINDER_QUEUE = 'followup-reminder';
export const SIGN_IN_PURGE_QUEUE = 'auth.sign-in-purge';
export const IDEMPOTENCY_CLEANUP_QUEUE = 'idempotency-cleanup';
export const AUDIT_SEAL_QUEUE = 'audit-seal';
export const SMS_DISPATCH_QUEUE = 'sms.dispatch';
export const EXPORT_QUEUE = 'retrieval.export';
export const EXPORT_EXPIRY_QUEUE = 'retrieval.export-expiry';

/**
 * A data export (issue 15): one attempt may run an hour (a million patients to a slow storage); a worker that died
 * leaves it active until then, and it is retried twice (the export starts over and overwrites its file).
 */
export const EXPORT_POLICY = {
  retryLimit: 2,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 60 * 60,
} as const;

/** Housekeeping run on a schedule: a failed run is retried soon, and the next scheduled run comes anyway. */
export const HOUSEKEEPING = {
  retryLimit: 2,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 10 * 60,
} as const;

export const JOB_QUEUES: readonly JobQueuePolicy[] = [
  { name: FOLLOWUP_REMINDER_QUEUE, ...HOUSEKEEPING },
  { name: SIGN_IN_PURGE_QUEUE, ...HOUSEKEEPING },
  { name: IDEMPOTENCY_CLEANUP_QUEUE, ...HOUSEKEEPING },
  { name: AUDIT_SEAL_QUEUE, ...HOUSEKEEPING },
  { name: SMS_DISPATCH_QUEUE, ...HOUSEKEEPING },
  { name: EXPORT_QUEUE, ...EXPORT_POLICY },
  { name: EXPORT_EXPIRY_QUEUE, ...HOUSEKEEPING },
];
