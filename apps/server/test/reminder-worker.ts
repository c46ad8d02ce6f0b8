/**
 * One "server process" of the two-process reminder test: the reminder job on its own pool at a fixed time (NOW), run
 * RUNS times as two workers of the job queue might run it at once (claims are per task, so each task still goes out
 * once), then it prints what it did as JSON and exits. Run with `node --import tsx`.
 */
import { createDb } from '../src/db/client';
import { closePool, createPool } from '../src/db/pool';
import { createFollowupReminderJob } from '../src/modules/followup/followup-reminder.job';
import { createInAppNotifier } from '../src/modules/notification/notifier';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const now = new Date(process.env.NOW ?? '');
  if (!url || Number.isNaN(now.getTime())) throw new Error('DATABASE_URL and NOW are required');
  const pool = createPool(url, { max: 2 });
  const job = createFollowupReminderJob({
    db: createDb(pool),
    clock: { now: () => now },
    notifier: createInAppNotifier(),
    intervalSeconds: 60,
    batchSize: 5,
  });
  let tasks = 0;
  for (let i = 0; i < Number(process.env.RUNS ?? 1); i++) tasks += (await job.runOnce()).tasks;
  await closePool(pool);
  process.stdout.write(`${JSON.stringify({ pid: process.pid, tasks })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
