import { randomUUID } from 'node:crypto';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { audit, type AuditContext } from '../../plugins/audit';
import type { NotificationMessage, Notifier } from '../notification/notifier';
import type { Job } from '../../domain/jobs/interval-job';
import { claimDueTasks, followupEditors, type Candidate, type ClaimedTask } from './followup-reminder.repository';

export const FOLLOWUP_REMINDER_JOB = 'followup-reminder';

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
          const ctx: AuditContext = {
            actorId: null,
            tenantId: task.tenant_id,
            projectId: task.project_id,
            requestId: `job:${runId}`,
            ip: null,
          };
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
