/**
 * One "server process" of the two-process reminder test: a job runner with the reminder job on its own pool, a fixed
 * time (NOW), ticking TICKS times, then it prints what it did as JSON and exits. Run with `node --import tsx`.
 */
import { createDb } from '../src/db/client';
import { closePool, createPool } from '../src/db/pool';
import { createFollowupReminderJob } from '../src/modules/followup/followup-reminder.job';
import { createInAppNotifier } from '../src/modules/notification/notifier';
import { createJobRunner } from '../src/modules/scheduler/job-runner';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const now = new Date(process.env.NOW ?? '');
  if (!url || Number.isNaN(now.getTime())) throw new Error('DATABASE_URL and NOW are required');
  const pool = createPool(url, { max: 2 });
  const clock = { now: () => now };
  const db = createDb(pool);
  let tasks = 0;
  const job = createFollowupReminderJob({
    db,
    clock,
    notifier: createInAppNotifier(),
    intervalSeconds: 1,
    batchSize: 5,
  });
  const counted = { ...job, run: async () => void (tasks += (await job.runOnce()).tasks) };
  const runner = createJobRunner({ db, clock, jobs: [counted], tickSeconds: 1, instanceId: `worker-${process.pid}` });
  const ran: string[] = [];
  for (let i = 0; i < Number(process.env.TICKS ?? 1); i++) ran.push(...(await runner.tick()));
  // a direct run as well (what a second job instance would do mid-lease): claims are per task, so still once
  tasks += (await job.runOnce()).tasks;
  await closePool(pool);
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ran, tasks })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
