import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/client';
import { closePool, createPool } from '../../db/pool';
import { seedReferenceData } from '../../db/seed';
import { createFakeClock } from '../../lib/clock';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { buildReminderWorld, type ReminderWorld } from '../../../test/reminder-factory';
import { createOutboxSmsProvider } from '../auth/sms-provider';
import { combineNotifiers, createInAppNotifier, createSmsNotifier } from '../notification/notifier';
import { createFollowupReminderJob } from './followup-reminder.job';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.pool);
  await seedReferenceData(db);
});
afterAll(async () => {
  await database?.close();
});

/** 23:00 on 2026-03-06 in Shanghai, one hour before the reminder day of a window opening on 03-10 (3 days before). */
const EVE = new Date('2026-03-06T15:00:00Z');

function reminderJob(d: Db, clock: { now(): Date }, batchSize?: number) {
  return createFollowupReminderJob({ db: d, clock, notifier: createInAppNotifier(), intervalSeconds: 60, batchSize });
}

async function notificationsOf(world: ReminderWorld) {
  const { rows } = await database.pool.query<{
    user_id: string;
    entity_id: string;
    title: string;
    body: string;
    link: string;
  }>(
    'select user_id, entity_id, title, body, link from notifications where tenant_id = $1 order by entity_id, user_id',
    [world.tenantId],
  );
  return rows;
}

describe('follow-up reminder job', () => {
  it('should notify a task once when the Shanghai day enters its reminder window, never before or again', async () => {
    const world = await buildReminderWorld(db);
    const [task] = await world.addTasks({
      ownerId: world.users.nurseC1,
      windowStart: '2026-03-10',
      dueDate: '2026-03-17',
      windowEnd: '2026-03-24',
    });
    const clock = createFakeClock(EVE);
    const first = reminderJob(db, clock);
    await first.run();
    expect(await notificationsOf(world)).toEqual([]);

    clock.advanceMinutes(61); // 00:01 on 03-07 in Shanghai
    await first.run();
    const sent = await notificationsOf(world);
    expect(sent).toEqual([
      {
        user_id: world.users.nurseC1,
        entity_id: task,
        title: '随访提醒：C01-0001 出院后3个月',
        body: '心衰随访 · 出院后3个月：应随访日期 2026-03-17，窗口期 2026-03-10 至 2026-03-24。',
        link: `/followup/edit?id=${task}`,
      },
    ]);
    // the next runs, and a new job after a "restart", send nothing more
    for (let i = 0; i < 3; i++) {
      clock.advanceMinutes(24 * 60);
      await reminderJob(db, clock).run();
    }
    expect(await notificationsOf(world)).toHaveLength(1);
    const { rows } = await database.pool.query<{ actor_id: string | null; new_value: { recipients: string[] } }>(
      `select actor_id, new_value from audit_events where action = 'followup_task.remind' and entity_id = $1`,
      [task],
    );
    expect(rows).toEqual([
      { actor_id: null, new_value: expect.objectContaining({ recipients: [world.users.nurseC1] }) },
    ]);
  });

  it('should notify the follow-up editors whose centers cover an unassigned task, and skip closed and past tasks', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    const dates = { windowStart: '2026-03-07', dueDate: '2026-03-08', windowEnd: '2026-03-09' };
    const [atC1] = await world.addTasks({ ...dates, center: 'c1' });
    const [atC2] = await world.addTasks({ ...dates, center: 'c2' });
    await world.addTasks({ ...dates, status: 'done', ownerId: world.users.nurseC1 });
    await world.addTasks({ ...dates, status: 'cancelled' });
    // past its window: overdue, not a reminder
    await world.addTasks({ windowStart: '2026-02-01', dueDate: '2026-02-03', windowEnd: '2026-03-06' });
    // not yet
    await world.addTasks({ windowStart: '2026-03-08', dueDate: '2026-03-09', windowEnd: '2026-03-10' });
    const clock = createFakeClock(new Date('2026-03-07T01:00:00Z'));
    expect(await reminderJob(db, clock).runOnce()).toEqual({ tasks: 2, notifications: 6 });
    const sent = await notificationsOf(world);
    const to = (task: string | undefined) =>
      sent
        .filter((n) => n.entity_id === task)
        .map((n) => n.user_id)
        .sort();
    const { owner, nurseC1, nurseC2, nurseAll } = world.users;
    expect(to(atC1)).toEqual([owner, nurseC1, nurseAll].sort());
    expect(to(atC2)).toEqual([owner, nurseC2, nurseAll].sort());
    expect(sent).toHaveLength(6);
  });

  it('should not remind the tasks of a patient lost as a whole, deceased or deleted', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    const dates = { windowStart: '2026-03-07', dueDate: '2026-03-08', windowEnd: '2026-03-09' };
    const [kept] = await world.addTasks(dates);
    // lost as a whole the way followup/task/lost does it: the patient marked, the open tasks closed as lost
    const [lostClosed] = await world.addTasks(dates);
    // and, defensively, patients whose task stayed open
    const [lostOpen] = await world.addTasks(dates);
    const [deceasedOpen] = await world.addTasks(dates);
    const [deletedOpen] = await world.addTasks(dates);
    const patientOf = async (task: string | undefined) =>
      (await database.pool.query<{ patient_id: string }>('select patient_id from followup_tasks where id = $1', [task]))
        .rows[0]?.patient_id;
    const lostAt = new Date('2026-03-06T02:00:00Z');
    await database.pool.query(
      `update patients set followup_lost_at = $2, followup_lost_reason = '失访' where id = any($1::uuid[])`,
      [[await patientOf(lostClosed), await patientOf(lostOpen)], lostAt],
    );
    await database.pool.query(
      `update followup_tasks set status = 'lost', closed_at = $2, closed_reason = '失访' where id = $1`,
      [lostClosed, lostAt],
    );
    await database.pool.query(`update patients set status = 'deceased' where id = $1`, [await patientOf(deceasedOpen)]);
    await database.pool.query(`update patients set deleted_at = $2, delete_reason = '重复' where id = $1`, [
      await patientOf(deletedOpen),
      lostAt,
    ]);
    const clock = createFakeClock(new Date('2026-03-07T01:00:00Z'));
    expect(await reminderJob(db, clock).runOnce()).toMatchObject({ tasks: 1 });
    expect(new Set((await notificationsOf(world)).map((n) => n.entity_id))).toEqual(new Set([kept]));
  });

  it('should also write an SMS per notification with a phone, in the same transaction, when SMS is on', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    const [task] = await world.addTasks({
      ownerId: world.users.nurseC1,
      windowStart: '2026-03-07',
      dueDate: '2026-03-08',
      windowEnd: '2026-03-09',
    });
    await world.addTasks({
      ownerId: world.users.nurseC2,
      windowStart: '2026-03-07',
      dueDate: '2026-03-08',
      windowEnd: '2026-03-09',
    });
    const clock = createFakeClock(new Date('2026-03-07T01:00:00Z'));
    const sms = { send: () => Promise.reject(new Error('not used: the outbox is written in the transaction')) };
    const job = createFollowupReminderJob({
      db,
      clock,
      notifier: combineNotifiers(createInAppNotifier(), createSmsNotifier({ sms, now: () => clock.now() })),
      intervalSeconds: 60,
    });
    expect(await job.runOnce()).toEqual({ tasks: 2, notifications: 2 });
    const { rows } = await database.pool.query<{ phone: string; message: string }>(
      `select o.phone, o.message from sms_outbox o join users u on u.phone = o.phone where u.id = $1`,
      [world.users.nurseC1],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.message).toContain('C01-0001');
    expect(rows[0]?.message).not.toContain('患者1'); // no patient name in a text message
    expect(task).toBeTruthy();
  });

  it('should write the SMS through the outbox provider’s transactional send', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    await world.addTasks({
      ownerId: world.users.nurseC1,
      windowStart: '2026-03-07',
      dueDate: '2026-03-08',
      windowEnd: '2026-03-09',
    });
    const clock = createFakeClock(new Date('2026-03-07T01:00:00Z'));
    const sms = createOutboxSmsProvider({ db, clock, logger: { info: () => undefined } });
    const job = createFollowupReminderJob({
      db,
      clock,
      notifier: createSmsNotifier({ sms, now: () => clock.now() }),
      intervalSeconds: 60,
    });
    expect(await job.runOnce()).toEqual({ tasks: 1, notifications: 1 });
    const { rows } = await database.pool.query<{ n: number }>(
      `select count(*)::int as n from sms_outbox o join users u on u.phone = o.phone where u.id = $1`,
      [world.users.nurseC1],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('should roll a batch back whole when notifying fails, and send it on the next run', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    await world.addTasks({
      count: 3,
      ownerId: world.users.nurseAll,
      windowStart: '2026-03-07',
      dueDate: '2026-03-08',
      windowEnd: '2026-03-09',
    });
    const clock = createFakeClock(new Date('2026-03-07T01:00:00Z'));
    const broken = createFollowupReminderJob({
      db,
      clock,
      notifier: { notify: () => Promise.reject(new Error('崩溃')) },
      intervalSeconds: 60,
    });
    await expect(broken.runOnce()).rejects.toThrow('崩溃');
    const { rows } = await database.pool.query<{ n: number }>(
      'select count(*)::int as n from followup_tasks where tenant_id = $1 and reminded_at is not null',
      [world.tenantId],
    );
    expect(rows[0]?.n).toBe(0);
    expect(await reminderJob(db, clock).runOnce()).toEqual({ tasks: 3, notifications: 3 });
  });

  it('should send exactly one notification per task and recipient with two processes (separate pools) at once', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    const dates = { windowStart: '2026-03-07', dueDate: '2026-03-08', windowEnd: '2026-03-09' };
    const owned = await world.addTasks({ ...dates, count: 150, ownerId: world.users.nurseAll });
    const unassigned = await world.addTasks({ ...dates, count: 50, center: 'c2' });
    const clock = createFakeClock(new Date('2026-03-07T01:00:00Z'));
    const pools = [
      createPool(database.connectionString, { max: 3 }),
      createPool(database.connectionString, { max: 3 }),
    ];
    try {
      const jobs = pools.map((p) => reminderJob(createDb(p), clock, 7));
      const results = await Promise.all([
        jobs[0]!.runOnce(),
        jobs[1]!.runOnce(),
        jobs[0]!.runOnce(),
        jobs[1]!.runOnce(),
      ]);
      expect(results.reduce((n, r) => n + r.tasks, 0)).toBe(200);
      const sent = await notificationsOf(world);
      // owned: 1 recipient each; unassigned at C2: owner, nurseC2, nurseAll
      expect(sent).toHaveLength(150 + 50 * 3);
      expect(new Set(sent.map((n) => `${n.entity_id}:${n.user_id}`)).size).toBe(sent.length);
      expect(new Set(sent.map((n) => n.entity_id))).toEqual(new Set([...owned, ...unassigned]));
      const { rows } = await database.pool.query<{ n: number }>(
        `select count(*)::int as n from audit_events where action = 'followup_task.remind' and tenant_id = $1`,
        [world.tenantId],
      );
      expect(rows[0]?.n).toBe(200);
    } finally {
      await Promise.all(pools.map((p) => closePool(p)));
    }
  });
});

describe('follow-up reminder job in two real processes', () => {
  it('should notify each of 200 due tasks exactly once per recipient when two node processes run it at once', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    const dates = { windowStart: '2026-03-07', dueDate: '2026-03-08', windowEnd: '2026-03-09' };
    const tasks = [
      ...(await world.addTasks({ ...dates, count: 100, ownerId: world.users.nurseC1 })),
      ...(await world.addTasks({ ...dates, count: 100, center: 'c1' })),
    ];
    const worker = path.resolve(__dirname, '../../../test/reminder-worker.ts');
    const spawnWorker = () =>
      new Promise<{ pid: number; tasks: number }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', worker], {
          env: { ...process.env, DATABASE_URL: database.connectionString, NOW: '2026-03-07T01:00:00Z', RUNS: '2' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0
            ? resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}'))
            : reject(new Error(`worker ${code}: ${err}`)),
        );
      });
    const results = await Promise.all([spawnWorker(), spawnWorker()]);
    expect(results.reduce((n, r) => n + r.tasks, 0)).toBe(200);
    const sent = await notificationsOf(world);
    // owned at C1: nurseC1; unassigned at C1: owner, nurseC1, nurseAll (not the viewer, nurseC2 or the disabled nurse)
    expect(sent).toHaveLength(100 + 100 * 3);
    expect(new Set(sent.map((n) => `${n.entity_id}:${n.user_id}`)).size).toBe(sent.length);
    expect(new Set(sent.map((n) => n.entity_id))).toEqual(new Set(tasks));
  }, 60_000);
});
