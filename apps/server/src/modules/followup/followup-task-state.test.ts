import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, TASK_STATES, taskState, type TaskStatus } from '@registry/shared/followup/schedule';
import { createDb, type Db } from '../../db/client';
import { followupTasks } from '../../db/schema';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { buildPatient, buildProject, buildTenant, buildUser } from '../../../test/factories';
import { planCounts } from './followup-plan.repository';
import { stateCondition, stateSql } from './followup-task.repository';
import { buildAssignment, buildPlan, buildTask } from './followup.test-factory';

/**
 * A task's state is defined once, by the shared `taskState` (packages/shared/src/followup/schedule.ts); the worklist
 * computes it in SQL (`stateSql`, `stateCondition`, the plans' overdue count). This test runs that SQL on PostgreSQL for
 * a table of windows × days — every window's edges and the days beside them, month ends, a leap day, a year end — and
 * requires the same state as `taskState` on the same inputs.
 */

type Task = { status: TaskStatus; windowStart: string; windowEnd: string };
const WINDOWS: [string, string][] = [
  ['2026-01-29', '2026-02-02'], // across a month end
  ['2026-01-31', '2026-01-31'], // one day, a 31st
  ['2026-02-28', '2026-03-01'], // February's end in a common year
  ['2028-02-28', '2028-03-01'], // ... and in a leap year (29 Feb inside)
  ['2028-02-29', '2028-02-29'], // the leap day alone
  ['2026-12-30', '2027-01-02'], // across a year end
  ['2026-04-30', '2026-05-31'], // month end to month end
  ['2026-03-10', '2026-03-24'],
];
const TASKS: Task[] = [
  ...WINDOWS.map(([windowStart, windowEnd]) => ({ status: 'open' as const, windowStart, windowEnd })),
  ...(['done', 'lost', 'cancelled'] as const).map((status) => ({
    status,
    windowStart: '2026-01-31',
    windowEnd: '2026-02-28',
  })),
];
const TODAYS = [
  ...new Set([
    ...WINDOWS.flatMap(([start, end]) => [addDays(start, -1), start, end, addDays(end, 1)]),
    '2026-01-30',
    '2026-02-01',
    '2026-02-28',
    '2026-03-31',
    '2026-12-31',
    '2027-01-01',
    '2028-02-29',
  ]),
].sort();

let database: TestDatabase;
let db: Db;
let planId: string;
const idToTask = new Map<string, Task>();

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.pool);
  const { tenant } = await buildTenant(db);
  const owner = await buildUser(db, tenant.id);
  const project = await buildProject(db, tenant.id, owner.id);
  const patient = await buildPatient(db, tenant.id, project.id);
  const plan = await buildPlan(db, {
    tenantId: tenant.id,
    projectId: project.id,
    name: '状态对照',
    visits: TASKS.map((_, i) => ({ name: `第${i + 1}次` })),
  });
  planId = plan.planId;
  const assignmentId = await buildAssignment(db, {
    tenantId: tenant.id,
    projectId: project.id,
    planId,
    patientId: patient.id,
  });
  for (const [i, task] of TASKS.entries()) {
    const id = await buildTask(db, {
      tenantId: tenant.id,
      projectId: project.id,
      planId,
      visitId: plan.visitIds[i] ?? '',
      assignmentId,
      patientId: patient.id,
      ...task,
    });
    idToTask.set(id, task);
  }
});
afterAll(async () => {
  await database?.close();
});

describe('task states in SQL and the shared taskState', () => {
  it('should cover every state, each window edge and month ends', () => {
    const seen = new Set(TODAYS.flatMap((today) => TASKS.map((t) => taskState(t, today))));
    expect([...seen].sort()).toEqual([...TASK_STATES].sort());
    expect(TODAYS.length).toBeGreaterThan(30);
  });

  it('should give each task on each day the state taskState gives it', async () => {
    const mismatches: string[] = [];
    for (const today of TODAYS) {
      const conditions = Object.fromEntries(
        TASK_STATES.map((state) => [state, sql<boolean>`(${stateCondition(state, today)})`]),
      );
      const rows = await db
        .select({ id: followupTasks.id, state: stateSql(today), ...conditions })
        .from(followupTasks)
        .where(eq(followupTasks.planId, planId));
      expect(rows).toHaveLength(TASKS.length);
      for (const row of rows) {
        const task = idToTask.get(row.id);
        if (!task) throw new Error(`unknown task ${row.id}`);
        const expected = taskState(task, today);
        const where = `${task.status} ${task.windowStart}…${task.windowEnd} on ${today}`;
        if (row.state !== expected) mismatches.push(`${where}: stateSql ${row.state}, taskState ${expected}`);
        for (const state of TASK_STATES) {
          const holds = (row as unknown as Record<string, boolean>)[state];
          if (holds !== (expected === state))
            mismatches.push(`${where}: stateCondition('${state}') ${holds}, taskState ${expected}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("should count a plan's overdue tasks as taskState does", async () => {
    for (const today of TODAYS) {
      const counts = await planCounts(db, [planId], today);
      const overdue = TASKS.filter((t) => taskState(t, today) === 'overdue').length;
      expect(counts.get(planId)?.overdueTaskCount, today).toBe(overdue);
      expect(counts.get(planId)?.openTaskCount, today).toBe(TASKS.filter((t) => t.status === 'open').length);
    }
  });
});
