import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import {
  centers,
  followupAssignments,
  followupPlans,
  followupTasks,
  followupVisits,
  patients,
  projectMembers,
  roles,
  users,
} from '../src/db/schema';
import { buildProject, buildTenant } from './factories';

/**
 * A tiny follow-up world for the reminder job and the notification calls, written straight into the tables (the plan
 * and task services are another module's): a tenant, a project with centers C1 and C2, follow-up staff at each, one
 * plan with one visit, and `addTasks` for open tasks of new patients.
 */
export type ReminderWorld = Awaited<ReturnType<typeof buildReminderWorld>>;

const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$0000000000000000000000000000000000000000000';

export async function buildReminderWorld(db: Db, opts: { remindDaysBefore?: number } = {}) {
  const { tenant, organisationId } = await buildTenant(db);
  const tenantId = tenant.id;
  const s = randomBytes(3).toString('hex');
  const user = async (key: string, extra: Partial<typeof users.$inferInsert> = {}) => {
    const [row] = await db
      .insert(users)
      .values({
        tenantId,
        organisationId,
        username: `${key}_${s}`,
        name: key,
        passwordHash: PASSWORD_HASH,
        tenantRoleCode: 'tenant_member',
        ...extra,
      })
      .returning({ id: users.id });
    if (!row) throw new Error('user not created');
    return row.id;
  };
  const owner = await user('owner');
  const project = await buildProject(db, tenantId, owner);
  const [c1, c2] = await db
    .insert(centers)
    .values([
      { tenantId, projectId: project.id, organisationId: organisationId as string, code: 'C01', name: '一中心' },
      { tenantId, projectId: project.id, organisationId: organisationId as string, code: 'C02', name: '二中心' },
    ])
    .returning({ id: centers.id });
  if (!c1 || !c2) throw new Error('centers not created');
  const roleId = async (code: string) => {
    const [row] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.code, code), isNull(roles.tenantId), isNull(roles.projectId)));
    if (!row) throw new Error(`role ${code} missing: seedReferenceData first`);
    return row.id;
  };
  const nurseC1 = await user('nurseC1', { phone: `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` });
  const nurseC2 = await user('nurseC2');
  const nurseAll = await user('nurseAll');
  const viewerC1 = await user('viewerC1');
  const disabledNurse = await user('disabledNurse', { disabled: true });
  const nurse = await roleId('followup_nurse');
  await db.insert(projectMembers).values([
    { tenantId, projectId: project.id, userId: owner, roleId: await roleId('project_owner'), centerId: null },
    { tenantId, projectId: project.id, userId: nurseC1, roleId: nurse, centerId: c1.id },
    { tenantId, projectId: project.id, userId: nurseC2, roleId: nurse, centerId: c2.id },
    { tenantId, projectId: project.id, userId: nurseAll, roleId: nurse, centerId: null },
    { tenantId, projectId: project.id, userId: viewerC1, roleId: await roleId('viewer'), centerId: c1.id },
    { tenantId, projectId: project.id, userId: disabledNurse, roleId: nurse, centerId: c1.id },
  ]);
  const [plan] = await db
    .insert(followupPlans)
    .values({
      tenantId,
      projectId: project.id,
      name: '心衰随访',
      kind: 'relative',
      status: 'active',
      anchor: { type: 'enrol' },
      remindDaysBefore: opts.remindDaysBefore ?? 3,
    })
    .returning({ id: followupPlans.id });
  const [visit] = await db
    .insert(followupVisits)
    .values({
      tenantId,
      planId: plan!.id,
      seq: 1,
      name: '出院后3个月',
      offset: 3,
      offsetUnit: 'month',
      windowBefore: 7,
      windowAfter: 7,
    })
    .returning({ id: followupVisits.id });
  let seq = 0;

  /** `count` new patients at `center`, each with one open task of the visit (owner as given). */
  async function addTasks(input: {
    count?: number;
    center?: 'c1' | 'c2';
    ownerId?: string | null;
    windowStart: string;
    dueDate: string;
    windowEnd: string;
    status?: 'open' | 'done' | 'lost' | 'cancelled';
  }): Promise<string[]> {
    const count = input.count ?? 1;
    const centerId = input.center === 'c2' ? c2!.id : c1!.id;
    const code = input.center === 'c2' ? 'C02' : 'C01';
    const patientRows = Array.from({ length: count }, () => {
      seq++;
      return {
        tenantId,
        projectId: project.id,
        centerId,
        seq,
        patientNo: `${code}-${String(seq).padStart(4, '0')}`,
        name: `患者${seq}`,
        status: 'enrolled' as const,
      };
    });
    const made = await db.insert(patients).values(patientRows).returning({ id: patients.id });
    const assignments = await db
      .insert(followupAssignments)
      .values(
        made.map((p) => ({
          tenantId,
          projectId: project.id,
          planId: plan!.id,
          patientId: p.id,
          source: 'manual' as const,
        })),
      )
      .returning({ id: followupAssignments.id, patientId: followupAssignments.patientId });
    const tasks = await db
      .insert(followupTasks)
      .values(
        assignments.map((a) => ({
          tenantId,
          projectId: project.id,
          patientId: a.patientId,
          planId: plan!.id,
          visitId: visit!.id,
          assignmentId: a.id,
          dueDate: input.dueDate,
          windowStart: input.windowStart,
          windowEnd: input.windowEnd,
          status: input.status ?? 'open',
          ownerId: input.ownerId ?? null,
        })),
      )
      .returning({ id: followupTasks.id });
    return tasks.map((t) => t.id);
  }

  return {
    tenantId,
    projectId: project.id,
    c1: c1.id,
    c2: c2.id,
    planId: plan!.id,
    visitId: visit!.id,
    users: { owner, nurseC1, nurseC2, nurseAll, viewerC1, disabledNurse },
    addTasks,
  };
}
