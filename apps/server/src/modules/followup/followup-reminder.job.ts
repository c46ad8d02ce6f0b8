import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PERMISSIONS } from '@registry/shared/permissions';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { audit, type AuditContext } from '../../plugins/audit';
import type { NotificationMessage, Notifier } from '../notification/notifier';
import type { Job } from '../scheduler/job-runner';

export const FOLLOWUP_REMINDER_JOB = 'followup-reminder';

/** A claimed task with what its message needs. */
type ClaimedTask = {
  id: string;
  tenant_id: string;
  project_id: string;
  root_project_id: string;
  owner_id: string | null;
  due_date: string;
  window_start: string;
  window_end: string;
  patient_no: string;
  center_id: string;
  plan_name: string;
  visit_name: string;
};

type Candidate = { user_id: string; project_id: string; center_id: string | null };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Claims up to `limit` open tasks whose window opens within their plan's `remind_days_before` of `today` (and has not
 * closed yet) and that were never reminded (never of a deleted, deceased or lost patient, should a task be open): ONE statement marks them `reminded_at` and answers them. `FOR UPDATE
 * SKIP LOCKED` lets two processes claim disjoint sets at the same moment; a task another process reminded meanwhile
 * fails the re-checked `reminded_at is null`.
 */
async function claimDueTasks(tx: Executor, today: string, now: Date, limit: number): Promise<ClaimedTask[]> {
  const result = await tx.execute(sql`
    with due as (
      select t.id
        from followup_tasks t
        join followup_plans p on p.id = t.plan_id and p.deleted_at is null
        join patients pa on pa.id = t.patient_id and pa.deleted_at is null
          and pa.status <> 'deceased' and pa.followup_lost_at is null
       where t.status = 'open'
         and t.reminded_at is null
         and t.window_start <= ${today}::date + p.remind_days_before
         and t.window_end >= ${today}::date
       order by t.window_start, t.id
       limit ${limit}
       for update of t skip locked
    ), claimed as (
      update followup_tasks t
         set reminded_at = ${now.toISOString()}::timestamptz
        from due
       where t.id = due.id and t.reminded_at is null and t.status = 'open'
      returning t.id, t.tenant_id, t.project_id, t.patient_id, t.plan_id, t.visit_id, t.owner_id,
                t.due_date, t.window_start, t.window_end
    )
    select c.id, c.tenant_id, c.project_id, coalesce(pr.parent_id, pr.id) as root_project_id, c.owner_id,
           c.due_date::text as due_date, c.window_start::text as window_start, c.window_end::text as window_end,
           pa.patient_no, pa.center_id, pl.name as plan_name, v.name as visit_name
      from claimed c
      join patients pa on pa.id = c.patient_id
      join followup_plans pl on pl.id = c.plan_id
      join followup_visits v on v.id = c.visit_id
      join projects pr on pr.id = c.project_id`);
  return rowsOf<ClaimedTask>(result);
}

/** Active members holding `followup.edit` in the given (top-level) projects, with their center (null = all). */
async function followupEditors(tx: Executor, rootProjectIds: readonly string[]): Promise<Candidate[]> {
  if (rootProjectIds.length === 0) return [];
  const ids = sql.join(
    rootProjectIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await tx.execute(sql`
    select m.user_id, m.project_id, m.center_id
      from project_members m
      join roles r on r.id = m.role_id
      join users u on u.id = m.user_id
     where m.project_id in (${ids})
       and ${PERMISSIONS.followupEdit} = any(r.permissions)
       and u.disabled = false`);
  return rowsOf<Candidate>(result);
}

/** The recipients of a task: its owner, or (unassigned) the project's follow-up editors whose centers cover it. */
export function recipientsOf(
  task: Pick<ClaimedTask, 'owner_id' | 'root_project_id' | 'center_id'>,
  editors: Candidate[],
) {
  if (task.owner_id) return [task.owner_id];
  const users = editors
    .filter((e) => e.project_id === task.root_project_id && (e.center_id === null || e.center_id === task.center_id))
    .map((e) => e.user_id);
  return [...new Set(users)];
}

/** The message of one task: patient number (no name: it may go out by SMS), visit, due date and window. */
export function reminderMessage(task: ClaimedTask, userId: string): NotificationMessage {
  const when =
    task.window_start === task.window_end
      ? `随访日期 ${task.due_date}`
      : `应随访日期 ${task.due_date}，窗口期 ${task.window_start} 至 ${task.window_end}`;
  return {
    tenantId: task.tenant_id,
    userId,
    projectId: task.project_id,
    kind: 'followup_due',
    entityId: task.id,
    title: `随访提醒：${task.patient_no} ${task.visit_name}`,
    body: `${task.plan_name} · ${task.visit_name}：${when}。`,
    link: `/followup/edit?id=${task.id}`,
    sms: `【随访提醒】患者 ${task.patient_no} 的“${task.visit_name}”随访：${when}，请及时随访。`,
  };
}

/**
 * The follow-up reminder job: every run notifies each task entering its reminder window exactly once. Tasks are
 * claimed (`reminded_at`) and notified in ONE transaction per batch, audited as the system (no actor), batch after
 * batch until none is left. Two processes running it at once claim disjoint tasks; a crash rolls a batch back whole.
 */
export function createFollowupReminderJob(deps: {
  db: Db;
  clock: Clock;
  notifier: Notifier;
  intervalSeconds: number;
  batchSize?: number;
}): Job & { runOnce(): Promise<{ tasks: number; notifications: number }> } {
  const { db, clock, notifier } = deps;
  const batchSize = deps.batchSize ?? 100;

  async function runOnce(): Promise<{ tasks: number; notifications: number }> {
    const runId = randomUUID();
    let tasks = 0;
    let sent = 0;
    for (;;) {
      const now = clock.now();
      const today = shanghaiDate(now);
      const batch = await db.transaction(async (tx) => {
        const claimed = await claimDueTasks(tx, today, now, batchSize);
        if (claimed.length === 0) return 0;
        const editors = claimed.some((t) => !t.owner_id)
          ? await followupEditors(tx, [...new Set(claimed.filter((t) => !t.owner_id).map((t) => t.root_project_id))])
          : [];
        const messages: NotificationMessage[] = [];
        for (const task of claimed) {
          const recipients = recipientsOf(task, editors);
          messages.push(...recipients.map((userId) => reminderMessage(task, userId)));
          const ctx: AuditContext = { actorId: null, tenantId: task.tenant_id, requestId: `job:${runId}`, ip: null };
          await audit(
            tx,
            ctx,
            {
              action: 'followup_task.remind',
              entityType: 'followup_task',
              entityId: task.id,
              newValue: { remindedAt: now.toISOString(), recipients, windowStart: task.window_start },
            },
            now,
          );
        }
        await notifier.notify(tx, messages);
        sent += messages.length;
        return claimed.length;
      });
      tasks += batch;
      if (batch < batchSize) break;
    }
    return { tasks, notifications: sent };
  }

  return {
    name: FOLLOWUP_REMINDER_JOB,
    intervalSeconds: deps.intervalSeconds,
    leaseSeconds: 10 * 60,
    async run() {
      await runOnce();
    },
    runOnce,
  };
}
