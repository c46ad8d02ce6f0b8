import PgBoss from 'pg-boss';
import { deadLetterOf, JOB_QUEUES, type JobQueuePolicy } from '../domain/jobs/job-queues';

/** The schema pg-boss keeps its tables in (its own; our migrations never touch it). */
export const JOB_QUEUE_SCHEMA = 'pgboss';

/** What a queue is created and updated with: its retry policy, expiry and its dead-letter queue. */
export function queueOptions(policy: JobQueuePolicy): PgBoss.Queue {
  return {
    name: policy.name,
    retryLimit: policy.retryLimit,
    retryDelay: policy.retryDelaySeconds,
    retryBackoff: policy.retryBackoff,
    expireInSeconds: policy.expireInSeconds,
    deadLetter: deadLetterOf(policy.name),
  };
}

/**
 * Creates a queue and its dead-letter queue when missing (pg-boss makes a table per queue: DDL, so on the owner's
 * connection) and brings an existing queue's policy up to date (a plain UPDATE, which the app's role may do).
 */
export async function ensureQueue(boss: PgBoss, policy: JobQueuePolicy): Promise<void> {
  const dead = deadLetterOf(policy.name);
  const options = queueOptions(policy);
  if (!(await boss.getQueue(dead))) await boss.createQueue(dead, { name: dead, retryLimit: 0 });
  if (await boss.getQueue(policy.name)) await boss.updateQueue(policy.name, options);
  else await boss.createQueue(policy.name, options);
}

/**
 * The migration step of the job queue, run as the database OWNER after the Drizzle migrations (runMigrations): installs
 * pg-boss's schema or upgrades it to the installed pg-boss's version (pg-boss serialises this with its own advisory
 * lock), creates every queue of JOB_QUEUES with its dead-letter queue and pg-boss's internal cron queue, and — when
 * `grantTo` names the app's role — lets that role use them (rows only: it cannot create or alter tables). The app's
 * own pg-boss then starts with `migrate: false` and only checks that the schema is at its version.
 */
export async function installJobQueueSchema(
  connectionString: string,
  opts: { queues?: readonly JobQueuePolicy[]; grantTo?: string } = {},
): Promise<void> {
  const boss = new PgBoss({
    connectionString,
    schema: JOB_QUEUE_SCHEMA,
    max: 2,
    application_name: 'registry-migrate',
    migrate: true,
    schedule: false,
    supervise: false,
  });
  let failure: unknown;
  boss.on('error', (err) => (failure ??= err));
  await boss.start();
  try {
    for (const queue of opts.queues ?? JOB_QUEUES) await ensureQueue(boss, queue);
    // the queue pg-boss's cron hands scheduled jobs through (its timekeeper creates it at start when it may)
    if (!(await boss.getQueue(CRON_QUEUE))) await boss.createQueue(CRON_QUEUE);
    if (opts.grantTo) await grantJobQueue(boss, opts.grantTo);
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
}

/** pg-boss's internal queue of due cron schedules (timekeeper.js, `QUEUES.SEND_IT`). */
const CRON_QUEUE = '__pgboss__send-it';

const ROLE_NAME = /^[a-z_][a-z0-9_$]{0,62}$/;

/** Row rights on pg-boss's tables (queue tables made later by the owner too: default privileges) for the app's role. */
async function grantJobQueue(boss: PgBoss, role: string): Promise<void> {
  if (!ROLE_NAME.test(role)) throw new Error(`invalid role name: ${role}`);
  const s = JOB_QUEUE_SCHEMA;
  await boss.getDb().executeSql(
    `GRANT USAGE ON SCHEMA ${s} TO ${role};
     GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${role};
     GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${role};
     ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role};`,
    [],
  );
}
