import { addDays, addMonths, shanghaiDate, shanghaiStartOfDay } from '@registry/shared/followup/schedule';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { centers, followupContacts, followupPlans, followupTasks, patients, users } from '../../db/schema';
import { insertPlanRow, insertVisitRows, type SyncPlan } from './followup-plan.repository';
import { assignByRule } from './followup-assignment.repository';
import { reconcilePlan } from './followup-sync';
import { findDemoProject } from '../../db/demo-patients';

/**
 * Demo enrolment dates, in days before the seed day, of demo patients nobody has edited yet (row version 1): the
 * worklist then shows, on the day the demo is installed, visits due today (in their window), overdue and upcoming.
 * The others keep their dates.
 */
const ENROLLED_DAYS_AGO: Record<string, number> = {
  'C01-0001': 400, // 12 months: window closed 4–5 days ago → overdue
  'C01-0003': 95, // 3 months: due 3–6 days ago, window ±14 → due
  'C01-0005': 32, // 1 month: due 1–4 days ago, window ±7 → due
  'C02-0007': 190, // 6 months: due 6–9 days ago, window ±14 → due
  'C02-0008': 20, // 1 month: window opens in 1–4 days → upcoming
};
/** Visits whose window closed this many days before the seed day are shown as done (reached by phone). */
const DONE_AFTER_DAYS = 45;

const VISITS = [
  { name: '出院后1个月', offset: 1, window: 7 },
  { name: '出院后3个月', offset: 3, window: 14 },
  { name: '出院后6个月', offset: 6, window: 14 },
  { name: '出院后12个月', offset: 12, window: 30 },
];

/**
 * The follow-up demo of 心力衰竭注册登记研究 (HF-REG): the active relative plan 「心衰出院随访」 (anchored on the
 * enrolment date, visits at 1/3/6/12 months, form `followup_visit`, by phone, every patient by rule) applied to the
 * demo patients, older visits done, C01's open tasks owned by the demo nurse (C02's unassigned); and a fixed
 * periodic draft 「季度电话随访（示例）」. Idempotent: nothing once HF-REG has a plan, or without the demo patients.
 */
export async function seedDemoFollowup(db: Db, now: Date = new Date()): Promise<number> {
  const hf = await findDemoProject(db);
  if (!hf) return 0;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`followup:seed:${hf.id}`}, 0))`);
    const [anyPlan] = await tx
      .select({ id: followupPlans.id })
      .from(followupPlans)
      .where(eq(followupPlans.projectId, hf.id))
      .limit(1);
    if (anyPlan) return 0;
    const people = await tx
      .select({ id: patients.id, patientNo: patients.patientNo, rowVersion: patients.rowVersion, center: centers.code })
      .from(patients)
      .innerJoin(centers, eq(centers.id, patients.centerId))
      .where(and(eq(patients.projectId, hf.id), isNull(patients.deletedAt)));
    if (people.length === 0) return 0;
    const staff = await tx
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(and(eq(users.tenantId, hf.tenantId), inArray(users.username, ['owner', 'nurse'])));
    const ownerId = staff.find((u) => u.username === 'owner')?.id ?? null;
    const nurseId = staff.find((u) => u.username === 'nurse')?.id ?? null;
    const today = shanghaiDate(now);

    for (const p of people) {
      const ago = ENROLLED_DAYS_AGO[p.patientNo];
      if (ago === undefined || p.rowVersion !== 1) continue;
      await tx
        .update(patients)
        // an enrolled patient in follow-up is no longer screening
        .set({
          enrolDate: addDays(today, -ago),
          status: sql`case when ${patients.status} = 'screening' then 'enrolled' else ${patients.status} end`,
        })
        .where(eq(patients.id, p.id));
    }

    const planId = await insertPlanRow(tx, {
      tenantId: hf.tenantId,
      projectId: hf.id,
      name: '心衰出院随访',
      description: '出院（入组）后1、3、6、12个月电话随访，填写随访记录。',
      kind: 'relative',
      status: 'active',
      anchor: { type: 'enrol' },
      assignMode: 'auto',
      rule: { subProjectIds: [], field: null },
      remindDaysBefore: 3,
      defaultOwnerId: null,
      createdBy: ownerId,
      createdAt: now,
      updatedBy: ownerId,
      updatedAt: now,
    });
    await insertVisitRows(
      tx,
      VISITS.map((v, i) => ({
        tenantId: hf.tenantId,
        planId,
        seq: i + 1,
        name: v.name,
        offset: v.offset,
        offsetUnit: 'month' as const,
        windowBefore: v.window,
        windowAfter: v.window,
        formKeys: ['followup_visit'],
        contactMethod: 'phone',
      })),
    );
    const plan: SyncPlan = {
      id: planId,
      tenantId: hf.tenantId,
      projectId: hf.id,
      kind: 'relative',
      status: 'active',
      anchor: { type: 'enrol' },
      assignMode: 'auto',
      rule: { subProjectIds: [], field: null },
      defaultOwnerId: null,
    };
    await assignByRule(tx, plan, { userId: ownerId, at: now });
    const result = await reconcilePlan(tx, plan, { mode: 'anchor', userId: ownerId, at: now });

    // Older visits were done: closed by the nurse after a reached phone call on the due date.
    const done = await tx
      .update(followupTasks)
      .set({
        status: 'done',
        closedBy: nurseId,
        closedAt: sql`${followupTasks.dueDate}::timestamp + interval '2 hours'`,
      })
      .where(
        and(
          eq(followupTasks.planId, planId),
          eq(followupTasks.status, 'open'),
          sql`${followupTasks.windowEnd} < ${addDays(today, -DONE_AFTER_DAYS)}::date`,
        ),
      )
      .returning({ id: followupTasks.id, patientId: followupTasks.patientId, dueDate: followupTasks.dueDate });
    if (done.length > 0)
      await tx.insert(followupContacts).values(
        done.map((t) => ({
          tenantId: hf.tenantId,
          taskId: t.id,
          patientId: t.patientId,
          contactedAt: new Date(shanghaiStartOfDay(t.dueDate).getTime() + 10 * 3_600_000),
          method: 'phone',
          outcome: 'reached' as const,
          note: '患者一般情况可，按时服药。',
          createdBy: nurseId,
        })),
      );
    // The nurse follows C01's patients; C02's open tasks wait to be assigned.
    const c01 = people.filter((p) => p.center === 'C01').map((p) => p.id);
    if (nurseId && c01.length > 0)
      await tx
        .update(followupTasks)
        .set({ ownerId: nurseId })
        .where(
          and(
            eq(followupTasks.planId, planId),
            eq(followupTasks.status, 'open'),
            inArray(followupTasks.patientId, c01),
          ),
        );

    // A fixed periodic plan, as a draft: every 3 months from the first of next month, 4 times.
    const start = addMonths(`${today.slice(0, 7)}-01`, 1);
    const fixedId = await insertPlanRow(tx, {
      tenantId: hf.tenantId,
      projectId: hf.id,
      name: '季度电话随访（示例）',
      description: '固定日期随访示例：每3个月一次，共4次。',
      kind: 'fixed',
      status: 'draft',
      period: {
        startDate: start,
        everyMonths: 3,
        times: 4,
        windowBefore: 7,
        windowAfter: 14,
        formKeys: ['followup_visit'],
        contactMethod: 'phone',
      },
      assignMode: 'manual',
      remindDaysBefore: 0,
      createdBy: ownerId,
      createdAt: now,
      updatedBy: ownerId,
      updatedAt: now,
    });
    await insertVisitRows(
      tx,
      [0, 1, 2, 3].map((k) => ({
        tenantId: hf.tenantId,
        planId: fixedId,
        seq: k + 1,
        name: `第${k + 1}次随访`,
        fixedDate: addMonths(start, k * 3),
        windowBefore: 7,
        windowAfter: 14,
        formKeys: ['followup_visit'],
        contactMethod: 'phone',
      })),
    );
    return result.tasksCreated;
  });
}
