import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TaskState } from '@registry/shared/followup/schedule';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import {
  centers,
  followupContacts,
  followupPlans,
  followupTasks,
  followupVisits,
  patients,
  projectMembers,
  users,
} from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import { escapeLike } from '../../lib/escape-like';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { pageTotal } from '../../lib/page-total';

/**
 * The follow-up worklist, one task and a patient's tasks as the record page reads them; the writes of the
 * record of one task are `followup-record.repository.ts`. A task is visible when its patient is (THE patient
 * scope: tenant, project, the sub-project's cohort, the center rule, not deleted): every read and write here joins
 * the patient. A task's state is computed in SQL from its status, its window and `today` (an Asia/Shanghai calendar
 * date, a bound parameter): due (open, window_start <= today <= window_end), overdue (open, window_end < today),
 * upcoming (open, window_start > today), else its status — the shared `taskState` (followup/schedule.ts) is the
 * definition; followup-task-state.test.ts holds this SQL (and the plans' overdue count, which uses it) to it on
 * PostgreSQL. The reminder's claim (followup-reminder.repository.ts) reads the window through `dueWithin` too.
 */

export type WorklistFilter = {
  /** A user id, or null for unassigned tasks. */
  ownerId?: string | null;
  centerId?: string;
  planId?: string;
  visitId?: string;
  patientId?: string;
  keyword?: string;
  /** The keyword also matches the patient's hospital number and name (`patient.pii`). */
  piiSearch: boolean;
  dueFrom?: string;
  dueTo?: string;
  state?: TaskState;
};

/** The state of a task on `today` (an ISO date), as SQL text. */
export function stateSql(today: string): SQL<TaskState> {
  return sql<TaskState>`(case when ${followupTasks.status} <> 'open' then ${followupTasks.status}
    when ${followupTasks.windowEnd} < ${today}::date then 'overdue'
    when ${followupTasks.windowStart} <= ${today}::date then 'due' else 'upcoming' end)`;
}

/** The columns the state rule reads: `followupTasks`, or an alias of it (`alias(followupTasks, 't')`) in raw SQL. */
export type TaskWindowColumns = { status: AnyPgColumn; windowStart: AnyPgColumn; windowEnd: AnyPgColumn };

/**
 * Open, and due on some day from `from` to `to` (SQL dates): its window opens by `to` and has not closed before
 * `from`. `due` is the span of today alone; a reminder's span reaches its plan's `remind_days_before` ahead.
 */
export function dueWithin(from: SQL, to: SQL, t: TaskWindowColumns = followupTasks): SQL {
  return sql`(${eq(t.status, 'open')} and ${t.windowStart} <= ${to} and ${t.windowEnd} >= ${from})`;
}

/** The condition of one state on `today`. */
export function stateCondition(state: TaskState, today: string, t: TaskWindowColumns = followupTasks): SQL {
  const open = eq(t.status, 'open');
  const day = sql`${today}::date`;
  switch (state) {
    case 'due':
      return dueWithin(day, day, t);
    case 'overdue':
      return sql`(${open} and ${t.windowEnd} < ${day})`;
    case 'upcoming':
      return sql`(${open} and ${t.windowStart} > ${day})`;
    default:
      return eq(t.status, state);
  }
}

/** The scope of tasks: the tenant's tasks of visible patients. */
export function taskScope(scope: ProjectScope): SQL {
  return sql`(${eq(followupTasks.tenantId, scope.tenantId)} and ${patientScope(scope)})`;
}

function filterConditions(scope: ProjectScope, f: WorklistFilter, today: string): SQL[] {
  const c: SQL[] = [taskScope(scope)];
  if (f.ownerId === null) c.push(isNull(followupTasks.ownerId));
  else if (f.ownerId) c.push(eq(followupTasks.ownerId, f.ownerId));
  if (f.centerId) c.push(eq(patients.centerId, f.centerId));
  if (f.planId) c.push(eq(followupTasks.planId, f.planId));
  if (f.visitId) c.push(eq(followupTasks.visitId, f.visitId));
  if (f.patientId) c.push(eq(followupTasks.patientId, f.patientId));
  if (f.keyword) {
    const p = escapeLike(f.keyword);
    const any = or(
      ilike(patients.patientNo, p),
      // identity data only with `patient.pii`: a partial match would spell out a masked value
      f.piiSearch ? ilike(patients.hospitalNo, p) : undefined,
      f.piiSearch ? ilike(patients.name, p) : undefined,
    );
    if (any) c.push(any);
  }
  if (f.dueFrom) c.push(sql`${followupTasks.dueDate} >= ${f.dueFrom}::date`);
  if (f.dueTo) c.push(sql`${followupTasks.dueDate} <= ${f.dueTo}::date`);
  if (f.state) c.push(stateCondition(f.state, today));
  return c;
}

const taskColumns = (today: string) => ({
  id: followupTasks.id,
  patientId: followupTasks.patientId,
  patientNo: patients.patientNo,
  patientName: patients.name,
  gender: patients.gender,
  phoneEnc: patients.phoneEnc,
  centerId: patients.centerId,
  centerName: centers.name,
  planId: followupTasks.planId,
  planName: followupPlans.name,
  visitId: followupTasks.visitId,
  visitName: followupVisits.name,
  contactMethod: followupVisits.contactMethod,
  dueDate: followupTasks.dueDate,
  windowStart: followupTasks.windowStart,
  windowEnd: followupTasks.windowEnd,
  status: followupTasks.status,
  state: stateSql(today),
  ownerId: followupTasks.ownerId,
  ownerName: users.name,
  attempts: sql<number>`(select count(*)::int from ${followupContacts} fc where fc.task_id = ${followupTasks.id})`,
  lastContactAt: sql<
    string | null
  >`(select max(fc.contacted_at) from ${followupContacts} fc where fc.task_id = ${followupTasks.id})`,
  lastOutcome: sql<
    string | null
  >`(select fc.outcome from ${followupContacts} fc where fc.task_id = ${followupTasks.id} order by fc.contacted_at desc, fc.created_at desc limit 1)`,
  closedAt: followupTasks.closedAt,
  closedReason: followupTasks.closedReason,
  rowVersion: followupTasks.rowVersion,
});

function taskSelect(db: Executor, today: string) {
  return db
    .select(taskColumns(today))
    .from(followupTasks)
    .innerJoin(patients, and(eq(patients.id, followupTasks.patientId), eq(patients.tenantId, followupTasks.tenantId)))
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .innerJoin(followupPlans, eq(followupPlans.id, followupTasks.planId))
    .innerJoin(followupVisits, eq(followupVisits.id, followupTasks.visitId))
    .leftJoin(users, eq(users.id, followupTasks.ownerId))
    .$dynamic();
}

/** The order of a page: per the contract, by the state asked for. */
function orderOf(state: TaskState | undefined): SQL[] {
  if (state === 'upcoming') return [asc(followupTasks.windowStart), asc(followupTasks.dueDate), asc(followupTasks.id)];
  if (state === 'done' || state === 'lost' || state === 'cancelled')
    return [sql`${followupTasks.closedAt} desc nulls last`, asc(followupTasks.id)];
  // due, overdue, or every state: open tasks first, most urgent window end first; then the latest closed
  return [
    sql`(${followupTasks.status} <> 'open')`,
    asc(followupTasks.windowEnd),
    sql`${followupTasks.closedAt} desc nulls last`,
    asc(followupTasks.id),
  ];
}

/** A page of the worklist and its total. */
export async function pageTasks(
  db: Executor,
  scope: ProjectScope,
  filter: WorklistFilter,
  today: string,
  paging: { current: number; size: number },
) {
  const where = and(...filterConditions(scope, filter, today));
  const records = await taskSelect(db, today)
    .where(where)
    .orderBy(...orderOf(filter.state))
    .limit(paging.size)
    .offset((paging.current - 1) * paging.size);
  const total = await pageTotal(
    { offset: (paging.current - 1) * paging.size, size: paging.size, rows: records.length },
    async () => {
      const [c] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(followupTasks)
        .innerJoin(
          patients,
          and(eq(patients.id, followupTasks.patientId), eq(patients.tenantId, followupTasks.tenantId)),
        )
        .where(where);
      return c?.n ?? 0;
    },
  );
  return { records, total };
}

/** Up to `limit` rows of the worklist in the page's order (the export). */
export async function listTasks(
  db: Executor,
  scope: ProjectScope,
  filter: WorklistFilter,
  today: string,
  limit: number,
) {
  return taskSelect(db, today)
    .where(and(...filterConditions(scope, filter, today)))
    .orderBy(...orderOf(filter.state))
    .limit(limit);
}

/** Per state under the filters (the state filter itself ignored), and open tasks due today. */
export async function countTasks(db: Executor, scope: ProjectScope, filter: WorklistFilter, today: string) {
  const { state: _state, ...rest } = filter;
  const n = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const [row] = await db
    .select({
      due: n(stateCondition('due', today)),
      upcoming: n(stateCondition('upcoming', today)),
      overdue: n(stateCondition('overdue', today)),
      done: n(stateCondition('done', today)),
      lost: n(stateCondition('lost', today)),
      dueToday: n(sql`${followupTasks.status} = 'open' and ${followupTasks.dueDate} = ${today}::date`),
    })
    .from(followupTasks)
    .innerJoin(patients, and(eq(patients.id, followupTasks.patientId), eq(patients.tenantId, followupTasks.tenantId)))
    .where(and(...filterConditions(scope, rest, today)));
  return row ?? { due: 0, upcoming: 0, overdue: 0, done: 0, lost: 0, dueToday: 0 };
}

/** The home page's figures: `week` is today + 6, `yearAgo` today − 364. */
export async function summaryCounts(
  db: Executor,
  scope: ProjectScope,
  dates: { today: string; week: string; yearAgo: string },
) {
  const { today, week, yearAgo } = dates;
  const n = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const mine = eq(followupTasks.ownerId, scope.userId);
  const inYear = sql`${followupTasks.dueDate} between ${yearAgo}::date and ${today}::date`;
  const [row] = await db
    .select({
      dueToday: n(sql`${followupTasks.status} = 'open' and ${followupTasks.dueDate} = ${today}::date`),
      due: n(stateCondition('due', today)),
      dueThisWeek: n(
        sql`${followupTasks.status} = 'open' and ${followupTasks.dueDate} between ${today}::date and ${week}::date`,
      ),
      overdue: n(stateCondition('overdue', today)),
      mineDue: n(sql`${stateCondition('due', today)} and ${mine}`),
      mineOverdue: n(sql`${stateCondition('overdue', today)} and ${mine}`),
      yearDone: n(sql`${stateCondition('done', today)} and ${inYear}`),
      yearMissed: n(sql`(${stateCondition('overdue', today)} or ${stateCondition('lost', today)}) and ${inYear}`),
    })
    .from(followupTasks)
    .innerJoin(patients, and(eq(patients.id, followupTasks.patientId), eq(patients.tenantId, followupTasks.tenantId)))
    .where(taskScope(scope));
  return row;
}

/** One visible task with what the record page needs of its patient, plan and visit. */
export async function findTask(db: Executor, scope: ProjectScope, id: string, today: string) {
  const [row] = await db
    .select({
      ...taskColumns(today),
      tenantId: followupTasks.tenantId,
      patientProjectId: patients.projectId,
      patientSubProjectId: patients.subProjectId,
      birthDate: patients.birthDate,
      enrolDate: patients.enrolDate,
      patientStatus: patients.status,
      deathDate: patients.deathDate,
      deathCause: patients.deathCause,
      lostAt: patients.followupLostAt,
      lostReason: patients.followupLostReason,
      planAnchor: followupPlans.anchor,
      visitSeq: followupVisits.seq,
      visitOffset: followupVisits.offset,
      visitOffsetUnit: followupVisits.offsetUnit,
      visitFixedDate: followupVisits.fixedDate,
      visitWindowBefore: followupVisits.windowBefore,
      visitWindowAfter: followupVisits.windowAfter,
      visitFormKeys: followupVisits.formKeys,
    })
    .from(followupTasks)
    .innerJoin(patients, and(eq(patients.id, followupTasks.patientId), eq(patients.tenantId, followupTasks.tenantId)))
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .innerJoin(followupPlans, eq(followupPlans.id, followupTasks.planId))
    .innerJoin(followupVisits, eq(followupVisits.id, followupTasks.visitId))
    .leftJoin(users, eq(users.id, followupTasks.ownerId))
    .where(and(taskScope(scope), eq(followupTasks.id, id)))
    .limit(1);
  return row;
}

export type TaskListRow = Awaited<ReturnType<typeof pageTasks>>['records'][number];
export type TaskDetailRow = NonNullable<Awaited<ReturnType<typeof findTask>>>;

/** The visible tasks of a patient, by due date. */
export async function patientTasks(db: Executor, scope: ProjectScope, patientId: string, today: string) {
  return taskSelect(db, today)
    .where(and(taskScope(scope), eq(followupTasks.patientId, patientId)))
    .orderBy(asc(followupTasks.dueDate), asc(followupVisits.seq), asc(followupTasks.id));
}

/** The visible tasks among `ids` (id, status, row version). */
export async function visibleTaskStates(db: Executor, scope: ProjectScope, ids: string[]) {
  return db
    .select({
      id: followupTasks.id,
      status: followupTasks.status,
      ownerId: followupTasks.ownerId,
      centerId: patients.centerId,
    })
    .from(followupTasks)
    .innerJoin(patients, and(eq(patients.id, followupTasks.patientId), eq(patients.tenantId, followupTasks.tenantId)))
    .where(and(taskScope(scope), inArray(followupTasks.id, ids)));
}

/** The membership of an enabled user in the project (`centerId` null = all centers), or undefined. */
export async function activeMembership(
  db: Executor,
  scope: ProjectScope,
  userId: string,
): Promise<{ centerId: string | null } | undefined> {
  const [row] = await db
    .select({ centerId: projectMembers.centerId })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(
      and(
        eq(projectMembers.tenantId, scope.tenantId),
        eq(projectMembers.projectId, scope.rootProjectId),
        eq(projectMembers.userId, userId),
        eq(users.disabled, false),
      ),
    )
    .limit(1);
  return row;
}

/** Sets the owner of the open tasks among `ids`; answers the tasks changed. */
export async function setOwner(tx: Executor, tenantId: string, ids: string[], ownerId: string | null, at: Date) {
  return tx
    .update(followupTasks)
    .set({ ownerId, updatedAt: at, rowVersion: sql`${followupTasks.rowVersion} + 1` })
    .where(and(eq(followupTasks.tenantId, tenantId), inArray(followupTasks.id, ids), eq(followupTasks.status, 'open')))
    .returning({ id: followupTasks.id, rowVersion: followupTasks.rowVersion });
}
