import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { scheduledJobs } from '../../db/schema';

/** The job's row, created once (due at `now`); an existing row keeps its schedule. */
export async function ensureJobRow(db: Executor, name: string, now: Date): Promise<void> {
  await db.insert(scheduledJobs).values({ name, nextRunAt: now }).onConflictDoNothing({ target: scheduledJobs.name });
}

/**
 * THE claim: one conditional UPDATE takes the lease of a due job whose previous lease is free or expired. Two
 * processes running it at the same moment: PostgreSQL serialises the row update and re-checks the condition for the
 * second, which then updates nothing. Answers true when this process holds the lease.
 */
export async function claimJob(
  db: Executor,
  name: string,
  owner: string,
  now: Date,
  leaseUntil: Date,
): Promise<boolean> {
  const rows = await db
    .update(scheduledJobs)
    .set({ lockedUntil: leaseUntil, lockedBy: owner, lastStartedAt: now })
    .where(
      and(
        eq(scheduledJobs.name, name),
        lte(scheduledJobs.nextRunAt, now),
        or(isNull(scheduledJobs.lockedUntil), lt(scheduledJobs.lockedUntil, now)),
      ),
    )
    .returning({ name: scheduledJobs.name });
  return rows.length === 1;
}

/** Releases the lease after a run (only the holder's: a run that outlived its lease changes nothing). */
export async function finishJob(
  db: Executor,
  name: string,
  owner: string,
  result: { finishedAt: Date; nextRunAt: Date; error: string | null },
): Promise<boolean> {
  const rows = await db
    .update(scheduledJobs)
    .set({
      lockedUntil: null,
      lockedBy: null,
      lastFinishedAt: result.finishedAt,
      lastError: result.error,
      nextRunAt: result.nextRunAt,
      runCount: sql`${scheduledJobs.runCount} + 1`,
    })
    .where(and(eq(scheduledJobs.name, name), eq(scheduledJobs.lockedBy, owner)))
    .returning({ name: scheduledJobs.name });
  return rows.length === 1;
}

export async function findJobRow(db: Executor, name: string) {
  const [row] = await db.select().from(scheduledJobs).where(eq(scheduledJobs.name, name)).limit(1);
  return row;
}
