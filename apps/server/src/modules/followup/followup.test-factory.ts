import type { Executor } from '../../db/client';
import { followupAssignments, followupPlans, followupTasks, followupVisits } from '../../db/schema';

/**
 * Test rows of follow-up plans, visits, assignments and tasks, inserted directly (the plan calls and task generation
 * are another module's): the worklist and record tests set dates and states exactly.
 */

export type VisitSpec = {
  name: string;
  formKeys?: string[];
  contactMethod?: string;
  offset?: number;
  windowBefore?: number;
  windowAfter?: number;
};

export async function buildPlan(
  db: Executor,
  spec: { tenantId: string; projectId: string; name: string; createdBy?: string; visits: VisitSpec[] },
) {
  const [plan] = await db
    .insert(followupPlans)
    .values({
      tenantId: spec.tenantId,
      projectId: spec.projectId,
      name: spec.name,
      kind: 'relative',
      status: 'active',
      anchor: { type: 'enrol' },
      createdBy: spec.createdBy ?? null,
    })
    .returning({ id: followupPlans.id });
  if (!plan) throw new Error('plan not created');
  const visits = await db
    .insert(followupVisits)
    .values(
      spec.visits.map((v, i) => ({
        tenantId: spec.tenantId,
        planId: plan.id,
        seq: i + 1,
        name: v.name,
        offset: v.offset ?? (i + 1) * 30,
        offsetUnit: 'day' as const,
        windowBefore: v.windowBefore ?? 3,
        windowAfter: v.windowAfter ?? 7,
        formKeys: v.formKeys ?? [],
        contactMethod: v.contactMethod ?? 'phone',
      })),
    )
    .returning({ id: followupVisits.id });
  return { planId: plan.id, visitIds: visits.map((v) => v.id) };
}

export async function buildAssignment(
  db: Executor,
  spec: { tenantId: string; projectId: string; planId: string; patientId: string; status?: 'active' | 'stopped' },
) {
  const [row] = await db
    .insert(followupAssignments)
    .values({ ...spec, source: 'manual', status: spec.status ?? 'active', anchorDate: '2026-01-01' })
    .returning({ id: followupAssignments.id });
  if (!row) throw new Error('assignment not created');
  return row.id;
}

export async function buildTask(
  db: Executor,
  spec: {
    tenantId: string;
    projectId: string;
    planId: string;
    visitId: string;
    assignmentId: string;
    patientId: string;
    windowStart: string;
    windowEnd: string;
    dueDate?: string;
    status?: 'open' | 'done' | 'lost' | 'cancelled';
    ownerId?: string | null;
    closedAt?: Date | null;
  },
) {
  const [row] = await db
    .insert(followupTasks)
    .values({
      ...spec,
      dueDate: spec.dueDate ?? spec.windowStart,
      status: spec.status ?? 'open',
      ownerId: spec.ownerId ?? null,
      closedAt: spec.closedAt ?? (spec.status && spec.status !== 'open' ? new Date('2026-02-01T00:00:00Z') : null),
    })
    .returning({ id: followupTasks.id });
  if (!row) throw new Error('task not created');
  return row.id;
}
