import { sql } from 'drizzle-orm';
import { PERMISSIONS } from '@registry/shared/permissions';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { followupTasks } from '../../db/schema';
import { dueWithin } from './followup-task.repository';

/** A claimed task with what its message needs. */
export type ClaimedTask = {
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

export type Candidate = { user_id: string; project_id: string; center_id: string | null };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** `followup_tasks t` of the claim: its window read by THE task-window rule (`dueWithin`, followup-task.repository.ts). */
const t = alias(followupTasks, 't');

/**
 * Claims up to `limit` open tasks whose window opens within their plan's `remind_days_before` of `today` (and has not
 * closed yet) and that were never reminded (never of a deleted, deceased or lost patient, should a task be open): ONE statement marks them `reminded_at` and answers them. `FOR UPDATE
 * SKIP LOCKED` lets two processes claim disjoint sets at the same moment; a task another process reminded meanwhile
 * fails the re-checked `reminded_at is null`.
 */
export async function claimDueTasks(tx: Executor, today: string, now: Date, limit: number): Promise<ClaimedTask[]> {
  const result = await tx.execute(sql`
    with due as (
      select t.id
        from followup_tasks t
        join followup_plans p on p.id = t.plan_id and p.deleted_at is null
        join patients pa on pa.id = t.patient_id and pa.deleted_at is null
          and pa.status <> 'deceased' and pa.followup_lost_at is null
       where ${dueWithin(sql`${today}::date`, sql`${today}::date + p.remind_days_before`, t)}
         and t.reminded_at is null
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
export async function followupEditors(tx: Executor, rootProjectIds: readonly string[]): Promise<Candidate[]> {
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
