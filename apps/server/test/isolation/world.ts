import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import type { Db } from '../../src/db/client';
import {
  centers,
  dataQueries,
  departments,
  files,
  followupAssignments,
  followupContacts,
  followupPlans,
  followupTasks,
  followupVisits,
  formDrafts,
  formRecords,
  formVersions,
  joinRequests,
  notifications,
  patients,
  projectMembers,
  projects,
  roles,
  users,
} from '../../src/db/schema';
import { hashPassword } from '../../src/lib/password';
import { buildTenant } from '../factories';

/**
 * The world of the isolation matrix: a tenant with two projects (and a sub-project), two centers in the first and one
 * in the second, a custom role, members in every built-in project role, a user outside every project, a join request
 * and a file. Built twice (tenants A and B) with the same shape, so every kind of row exists on both sides.
 */

export const WORLD_PASSWORD = 'Isol@tion2026';

export type ProjectRoleKey =
  'projectOwner' | 'centerLead' | 'dataEntry' | 'followupNurse' | 'monitor' | 'statistician' | 'viewer';
export const PROJECT_ROLE_KEYS: readonly ProjectRoleKey[] = [
  'projectOwner',
  'centerLead',
  'dataEntry',
  'followupNurse',
  'monitor',
  'statistician',
  'viewer',
];
/** Roles whose members are tied to one center (the others span all centers). */
const CENTER_SCOPED: ReadonlySet<ProjectRoleKey> = new Set(['centerLead', 'dataEntry', 'followupNurse']);

export type TenantWorld = {
  tenantId: string;
  tenantCode: string;
  organisationId: string;
  departmentId: string;
  /** tenant_admin, owner of both projects. */
  owner: { id: string; username: string };
  /** project_owner of P1 only (a tenant member): the strongest session confined to one project. */
  p1Owner: { id: string; username: string };
  /** A member of P1 in each built-in project role, center-scoped roles at C1. */
  members: Record<ProjectRoleKey, { id: string; username: string }>;
  /** A data-entry member at C2. */
  c2Entry: { id: string; username: string };
  /** A tenant member in no project. */
  outsider: { id: string; username: string };
  p1: string;
  p1Sub: string;
  p2: string;
  c1: string;
  c2: string;
  c3: string;
  customRole: string;
  /** A pending join request of the outsider to P1. */
  joinRequest: string;
  /** The membership row of the viewer in P1. */
  viewerMembership: string;
  file: string;
  /** P1's published form version (P2 has one too), with a record entered on it. */
  version: string;
  /** A patient of P1 at C1 (P1 has one at C2, the sub-project one at C1, P2 one at C3). */
  patient: string;
  /** The record of `patient` (every patient has one, each with an open query). */
  record: string;
  /** The query on `record`. */
  query: string;
  /** Follow-up: P1's plan and its visit, and the open task of `patient` (every patient has one, with a contact). */
  plan: string;
  visit: string;
  task: string;
};

const s = () => randomBytes(3).toString('hex');

export async function buildTenantWorld(db: Db, label: string): Promise<TenantWorld> {
  const passwordHash = await hashPassword(WORLD_PASSWORD);
  const { tenant, organisationId } = await buildTenant(db, { name: `隔离测试医院${label}` });
  if (!organisationId) throw new Error('organisation missing');
  const [dept] = await db
    .insert(departments)
    .values({ tenantId: tenant.id, organisationId, name: `心内科${label}` })
    .returning();
  if (!dept) throw new Error('department missing');

  const user = async (key: string, tenantRoleCode: string) => {
    const username = `iso_${label}_${key}_${s()}`.toLowerCase();
    const [row] = await db
      .insert(users)
      .values({
        tenantId: tenant.id,
        organisationId,
        departmentId: dept.id,
        username,
        name: `${label}-${key}`,
        phone: `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        passwordHash,
        tenantRoleCode,
      })
      .returning({ id: users.id, username: users.username });
    if (!row) throw new Error('user missing');
    return row;
  };

  const owner = await user('owner', BUILT_IN_ROLES.tenantAdmin.code);
  const p1Owner = await user('p1owner', BUILT_IN_ROLES.tenantMember.code);
  const outsider = await user('outsider', BUILT_IN_ROLES.tenantMember.code);
  const c2Entry = await user('c2entry', BUILT_IN_ROLES.tenantMember.code);
  const members = {} as TenantWorld['members'];
  for (const key of PROJECT_ROLE_KEYS) members[key] = await user(key, BUILT_IN_ROLES.tenantMember.code);

  const project = async (code: string, parentId: string | null = null) => {
    const [row] = await db
      .insert(projects)
      .values({
        tenantId: tenant.id,
        ownerId: owner.id,
        parentId,
        code: `${code}-${s()}`,
        name: `${label}${code}项目`,
        status: 'active',
      })
      .returning({ id: projects.id });
    if (!row) throw new Error('project missing');
    return row.id;
  };
  const p1 = await project('P1');
  const p1Sub = await project('P1S', p1);
  const p2 = await project('P2');

  const center = async (projectId: string, code: string) => {
    const [row] = await db
      .insert(centers)
      .values({ tenantId: tenant.id, projectId, organisationId, code, name: `${label}${code}中心` })
      .returning({ id: centers.id });
    if (!row) throw new Error('center missing');
    return row.id;
  };
  const c1 = await center(p1, 'C1');
  const c2 = await center(p1, 'C2');
  const c3 = await center(p2, 'C3');

  const roleId = async (code: string) => {
    const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.code, code));
    if (!row) throw new Error(`role ${code} missing`);
    return row.id;
  };
  const [custom] = await db
    .insert(roles)
    .values({
      tenantId: tenant.id,
      projectId: p1,
      code: `custom_${s()}`,
      name: `${label}自定义角色`,
      scope: 'project',
      permissions: ['home.view', 'patient.list'],
    })
    .returning({ id: roles.id });
  if (!custom) throw new Error('custom role missing');

  const member = async (projectId: string, userId: string, roleCode: string, centerId: string | null) =>
    db.insert(projectMembers).values({
      tenantId: tenant.id,
      projectId,
      userId,
      roleId: await roleId(roleCode),
      centerId,
    });
  await member(p1, owner.id, BUILT_IN_ROLES.projectOwner.code, null);
  await member(p2, owner.id, BUILT_IN_ROLES.projectOwner.code, null);
  await member(p1, p1Owner.id, BUILT_IN_ROLES.projectOwner.code, null);
  for (const key of PROJECT_ROLE_KEYS)
    await member(p1, members[key].id, BUILT_IN_ROLES[key].code, CENTER_SCOPED.has(key) ? c1 : null);
  await member(p1, c2Entry.id, BUILT_IN_ROLES.dataEntry.code, c2);
  await member(p2, members.monitor.id, BUILT_IN_ROLES.monitor.code, null);

  await db
    .insert(joinRequests)
    .values({ tenantId: tenant.id, projectId: p2, userId: outsider.id, message: '申请加入' });
  const [request] = await db
    .insert(joinRequests)
    .values({ tenantId: tenant.id, projectId: p1, userId: outsider.id, message: '申请加入' })
    .returning({ id: joinRequests.id });
  const [viewerMembership] = await db
    .select({ id: projectMembers.id })
    .from(projectMembers)
    .where(eq(projectMembers.userId, members.viewer.id));
  if (!viewerMembership) throw new Error('membership missing');
  await db
    .insert(joinRequests)
    .values({ tenantId: tenant.id, projectId: p1, userId: c2Entry.id, centerId: c2, status: 'refused' });
  if (!request) throw new Error('join request missing');

  const [file] = await db
    .insert(files)
    .values({
      tenantId: tenant.id,
      ownerId: owner.id,
      storageKey: `iso/${s()}${s()}`,
      originalName: 'a.png',
      contentType: 'image/png',
      size: 1,
      sha256: '0'.repeat(64),
      purpose: 'avatar',
    })
    .returning({ id: files.id });
  if (!file) throw new Error('file missing');
  await db.update(users).set({ avatar: file.id }).where(eq(users.id, owner.id));

  const definition = {
    missingCodes: [],
    categories: [
      {
        key: 'base',
        title: '基线',
        forms: [{ key: 'visit', title: '访视', fields: [{ key: 'a', label: 'A', type: 'text' }] }],
      },
    ],
  };
  const versions = await db
    .insert(formVersions)
    .values(
      [p1, p2].map((projectId) => ({
        tenantId: tenant.id,
        projectId,
        versionNo: 1,
        definition,
        changes: [],
        publishedBy: owner.id,
      })),
    )
    .returning({ id: formVersions.id });
  const version = versions[0];
  if (!version) throw new Error('form version missing');
  await db
    .insert(formDrafts)
    .values([p1, p2].map((projectId) => ({ tenantId: tenant.id, projectId, definition, revision: 0 })));
  const patientRows = await db
    .insert(patients)
    .values(
      [
        { projectId: p1, subProjectId: null, centerId: c1, code: 'C1' },
        { projectId: p1, subProjectId: null, centerId: c2, code: 'C2' },
        { projectId: p1, subProjectId: p1Sub, centerId: c1, code: 'C1' },
        { projectId: p2, subProjectId: null, centerId: c3, code: 'C3' },
      ].map((p, i) => ({
        tenantId: tenant.id,
        projectId: p.projectId,
        subProjectId: p.subProjectId,
        centerId: p.centerId,
        seq: i + 1,
        patientNo: `${p.code}-${String(i + 1).padStart(4, '0')}`,
        name: `患者${i + 1}`,
        hospitalNo: `ISO${s()}`,
        status: 'enrolled' as const,
      })),
    )
    .returning({ id: patients.id });
  const patient = patientRows[0];
  if (!patient) throw new Error('patient missing');
  const patientProjects = [p1, p1, p1Sub, p2];
  const recordRows = await db
    .insert(formRecords)
    .values(
      patientRows.map((p, i) => ({
        tenantId: tenant.id,
        projectId: patientProjects[i] ?? p1,
        patientId: p.id,
        formKey: 'visit',
        versionId: (i === 3 ? versions[1] : version)?.id ?? version.id,
        data: { a: 'x' },
      })),
    )
    .returning({ id: formRecords.id, projectId: formRecords.projectId, patientId: formRecords.patientId });
  const queryRows = await db
    .insert(dataQueries)
    .values(
      recordRows.map((r) => ({
        tenantId: tenant.id,
        projectId: r.projectId,
        patientId: r.patientId,
        recordId: r.id,
        path: 'a',
        origin: 'manual' as const,
        message: '请核实',
        raisedBy: owner.id,
      })),
    )
    .returning({ id: dataQueries.id });
  const record = recordRows[0];
  const query = queryRows[0];
  if (!record || !query) throw new Error('record missing');

  // follow-up: a plan of each project with one visit; each patient follows its project's plan with one open task
  const plans = await db
    .insert(followupPlans)
    .values(
      [p1, p2].map((projectId) => ({
        tenantId: tenant.id,
        projectId,
        name: `${label}随访`,
        kind: 'relative' as const,
        status: 'active' as const,
        anchor: { type: 'enrol' },
      })),
    )
    .returning({ id: followupPlans.id });
  const visitRows = await db
    .insert(followupVisits)
    .values(
      plans.map((pl) => ({
        tenantId: tenant.id,
        planId: pl.id,
        seq: 1,
        name: '1个月',
        offset: 1,
        offsetUnit: 'month' as const,
        formKeys: ['visit'],
      })),
    )
    .returning({ id: followupVisits.id });
  const taskIds: string[] = [];
  for (const [i, pt] of patientRows.entries()) {
    const k = i === 3 ? 1 : 0;
    const planId = plans[k]?.id ?? '';
    const visitId = visitRows[k]?.id ?? '';
    const projectId = i === 3 ? p2 : p1;
    const [assignment] = await db
      .insert(followupAssignments)
      .values({ tenantId: tenant.id, projectId, planId, patientId: pt.id, source: 'manual', anchorDate: '2026-01-01' })
      .returning({ id: followupAssignments.id });
    const [taskRow] = await db
      .insert(followupTasks)
      .values({
        tenantId: tenant.id,
        projectId,
        patientId: pt.id,
        planId,
        visitId,
        assignmentId: assignment?.id ?? '',
        dueDate: '2026-02-01',
        windowStart: '2026-01-25',
        windowEnd: '2026-02-08',
      })
      .returning({ id: followupTasks.id });
    if (!taskRow) throw new Error('task missing');
    taskIds.push(taskRow.id);
    await db.insert(followupContacts).values({
      tenantId: tenant.id,
      taskId: taskRow.id,
      patientId: pt.id,
      contactedAt: new Date('2026-01-26T02:00:00Z'),
      method: 'phone',
      outcome: 'no_answer',
    });
  }
  const plan = plans[0];
  const visit = visitRows[0];
  const task = taskIds[0];
  if (!plan || !visit || !task) throw new Error('follow-up rows missing');
  // an in-app notification of each acting user (own notifications only; the other tenant's must 404)
  await db.insert(notifications).values(
    [owner, p1Owner, members.centerLead].map((u) => ({
      tenantId: tenant.id,
      userId: u.id,
      projectId: p1,
      kind: 'followup_due',
      entityId: patient.id,
      title: `随访提醒：${label}`,
      body: '隔离测试',
      link: null,
    })),
  );

  return {
    tenantId: tenant.id,
    tenantCode: tenant.code,
    organisationId,
    departmentId: dept.id,
    owner,
    p1Owner,
    members,
    c2Entry,
    outsider,
    p1,
    p1Sub,
    p2,
    c1,
    c2,
    c3,
    customRole: custom.id,
    joinRequest: request.id,
    viewerMembership: viewerMembership.id,
    file: file.id,
    version: version.id,
    patient: patient.id,
    record: record.id,
    query: query.id,
    plan: plan.id,
    visit: visit.id,
    task,
  };
}

/** A PERSONAL tenant with one personal user (the personal edition's built-in role). */
export async function buildPersonalUser(db: Db): Promise<{ id: string; username: string }> {
  const { tenant } = await buildTenant(db, { type: 'PERSONAL', name: '个人版-隔离测试' });
  const [row] = await db
    .insert(users)
    .values({
      tenantId: tenant.id,
      username: `iso_personal_${s()}`,
      name: '个人用户',
      passwordHash: await hashPassword(WORLD_PASSWORD),
      tenantRoleCode: BUILT_IN_ROLES.personal.code,
    })
    .returning({ id: users.id, username: users.username });
  if (!row) throw new Error('personal user missing');
  return row;
}

export type TableSnapshot = Record<string, { rows: number; hash: string }>;

/**
 * Row count and an md5 of every row of the tenant in every table with a `tenant_id` column (and its audit seals and
 * heads).
 */
export async function snapshotTenant(pool: pg.Pool, tenantId: string): Promise<TableSnapshot> {
  const tables = await tablesWithColumn(pool, 'tenant_id');
  const out: TableSnapshot = {};
  for (const table of tables) {
    const r = await pool.query<{ n: string; h: string | null }>(
      `select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h
       from "${table}" t where tenant_id = $1`,
      [tenantId],
    );
    out[table] = { rows: Number(r.rows[0]?.n ?? 0), hash: r.rows[0]?.h ?? '' };
  }
  for (const table of ['audit_seals', 'audit_seal_heads']) {
    const r = await pool.query<{ n: string; h: string | null }>(
      `select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h
       from "${table}" t where tenant_key = $1`,
      [tenantId],
    );
    out[table] = { rows: Number(r.rows[0]?.n ?? 0), hash: r.rows[0]?.h ?? '' };
  }
  const tenant = await pool.query('select * from tenants where id = $1', [tenantId]);
  out.tenants = { rows: tenant.rowCount ?? 0, hash: JSON.stringify(tenant.rows) };
  return out;
}

export async function tablesWithColumn(pool: pg.Pool, column: string): Promise<string[]> {
  const r = await pool.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
     join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
     where c.table_schema = 'public' and c.column_name = $1 and t.table_type = 'BASE TABLE'
     order by c.table_name`,
    [column],
  );
  return r.rows.map((row) => row.table_name);
}

export type ForeignId = { kind: string; id: string };

/**
 * Up to `perTable` uuid ids of every table whose rows match `column = value` (e.g. `tenant_id = B`): every entity kind
 * of that scope, including tables added later.
 */
export async function idsWhere(pool: pg.Pool, column: string, value: string, perTable = 2): Promise<ForeignId[]> {
  const r = await pool.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
     join information_schema.columns k on k.table_name = c.table_name and k.table_schema = c.table_schema
     join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
     where c.table_schema = 'public' and c.column_name = 'id' and c.data_type = 'uuid' and k.column_name = $1
       and t.table_type = 'BASE TABLE'
     order by c.table_name`,
    [column],
  );
  const out: ForeignId[] = [];
  for (const { table_name: table } of r.rows) {
    const rows = await pool.query<{ id: string }>(
      `select id::text as id from "${table}" where ${column} = $1 order by id limit ${perTable}`,
      [value],
    );
    for (const row of rows.rows) out.push({ kind: table, id: row.id });
  }
  return out;
}
