import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/client';
import { createPool, closePool } from '../../db/pool';
import { createFakeClock } from '../../lib/clock';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { createJobRunner, type Job } from './job-runner';
import { findJobRow } from './scheduler.repository';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.pool);
});
afterAll(async () => {
  await database?.close();
});

/** A job that counts its runs and can be held open until released. */
function countingJob(name: string, intervalSeconds = 60) {
  let runs = 0;
  let release: (() => void) | undefined;
  let hold = false;
  const job: Job = {
    name,
    intervalSeconds,
    leaseSeconds: 120,
    async run() {
      runs++;
      if (hold) {
        hold = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
    },
  };
  return {
    job,
    runs: () => runs,
    holdNext: () => {
      hold = true;
    },
    release: () => {
      release?.();
    },
  };
}

describe('job runner', () => {
  it('should run a due job once, then again only after its interval, and survive a new runner (restart)', async () => {
    const clock = createFakeClock(new Date('2026-03-01T08:00:00Z'));
    const c = countingJob('count-a', 60);
    const runner = createJobRunner({ db, clock, jobs: [c.job], tickSeconds: 1 });
    expect(await runner.tick()).toEqual(['count-a']);
    expect(await runner.tick()).toEqual([]);
    clock.advanceMinutes(0.5);
    expect(await createJobRunner({ db, clock, jobs: [c.job], tickSeconds: 1 }).tick()).toEqual([]);
    clock.advanceMinutes(1);
    expect(await createJobRunner({ db, clock, jobs: [c.job], tickSeconds: 1 }).tick()).toEqual(['count-a']);
    expect(c.runs()).toBe(2);
    const row = await findJobRow(db, 'count-a');
    expect(row).toMatchObject({ runCount: 2, lockedUntil: null, lockedBy: null, lastError: null });
    expect(row?.nextRunAt.toISOString()).toBe('2026-03-01T08:02:30.000Z');
  });

  it('should let exactly one of two runners on separate pools run a job they tick at the same moment', async () => {
    const clock = createFakeClock(new Date('2026-03-01T08:00:00Z'));
    const pool2 = createPool(database.connectionString, { max: 2, logger: { error: () => undefined } });
    try {
      const c = countingJob('count-b');
      const runners = [
        createJobRunner({ db, clock, jobs: [c.job], tickSeconds: 1, instanceId: 'p1' }),
        createJobRunner({ db: createDb(pool2), clock, jobs: [c.job], tickSeconds: 1, instanceId: 'p2' }),
      ];
      for (let round = 0; round < 5; round++) {
        const ran = await Promise.all(runners.flatMap((r) => [r.tick(), r.tick()]));
        expect(ran.flat()).toHaveLength(1);
        clock.advanceMinutes(2);
      }
      expect(c.runs()).toBe(5);
    } finally {
      await closePool(pool2);
    }
  });

  it('should not run a job whose lease another process holds, and take it over once the lease expired', async () => {
    const clock = createFakeClock(new Date('2026-03-01T08:00:00Z'));
    const c = countingJob('count-c');
    const a = createJobRunner({ db, clock, jobs: [c.job], tickSeconds: 1, instanceId: 'a' });
    const b = createJobRunner({ db, clock, jobs: [c.job], tickSeconds: 1, instanceId: 'b' });
    c.holdNext();
    const first = a.tick();
    await expect.poll(() => c.runs()).toBe(1);
    // a is "crashed" mid-run: the lease (120 s) keeps b out until it expires
    clock.advanceMinutes(1);
    expect(await b.tick()).toEqual([]);
    clock.advanceMinutes(1.5);
    expect(await b.tick()).toEqual(['count-c']);
    expect(c.runs()).toBe(2);
    // the stale run finishing later changes nothing of b's schedule
    const before = await findJobRow(db, 'count-c');
    c.release();
    await first;
    const after = await findJobRow(db, 'count-c');
    expect(after?.runCount).toBe(before?.runCount);
    expect(after?.nextRunAt.toISOString()).toBe(before?.nextRunAt.toISOString());
  });

  it('should record a failed run and keep its schedule', async () => {
    const clock = createFakeClock(new Date('2026-03-01T08:00:00Z'));
    const failing: Job = {
      name: 'failing',
      intervalSeconds: 30,
      run: () => Promise.reject(new Error('网关不可用')),
    };
    const runner = createJobRunner({ db, clock, jobs: [failing], tickSeconds: 1 });
    expect(await runner.tick()).toEqual(['failing']);
    const row = await findJobRow(db, 'failing');
    expect(row).toMatchObject({ runCount: 1, lockedUntil: null, lastError: 'Error: 网关不可用' });
    expect(row?.nextRunAt.toISOString()).toBe('2026-03-01T08:00:30.000Z');
  });

  it('should tick on a timer after start() and stop on stop()', async () => {
    const clock = createFakeClock(new Date('2026-03-01T08:00:00Z'));
    const c = countingJob('timed', 1);
    const runner = createJobRunner({ db, clock, jobs: [c.job], tickSeconds: 0.05 });
    runner.start();
    await expect.poll(() => c.runs()).toBe(1);
    clock.advanceMinutes(1);
    await expect.poll(() => c.runs()).toBe(2);
    await runner.stop();
    clock.advanceMinutes(1);
    await new Promise((r) => setTimeout(r, 150));
    expect(c.runs()).toBe(2);
  });

  it('should refuse a job registered twice', () => {
    const c = countingJob('twice');
    expect(() => createJobRunner({ db, clock: createFakeClock(), jobs: [c.job, c.job], tickSeconds: 1 })).toThrow(
      /twice/,
    );
  });
});
