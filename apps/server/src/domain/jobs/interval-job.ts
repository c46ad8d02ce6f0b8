/**
 * A job run on a fixed interval, the shape the app's housekeeping jobs are written in: the job queue's `every` turns
 * it into a pg-boss queue with a cron schedule (modules/jobs). `leaseSeconds` becomes the queue's expiry: how long
 * one run may take before it counts as dead and another process retries it. Its `name` is its queue's: list it in
 * JOB_QUEUES (./job-queues) so the migrations create the queue.
 */
export type IntervalJob = {
  name: string;
  intervalSeconds: number;
  leaseSeconds?: number;
  run(): Promise<void>;
};
/** The former runner's name of that shape. */
export type Job = IntervalJob;
