import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { PatientCreateRequest } from '@registry/shared/contracts/patient';
import type { PlanApplyResponse, PlanInput, PlanVO } from '@registry/shared/contracts/followup';
import { DEFAULT_MISSING_CODES, type Definition, type FormDefinition } from '@registry/shared/forms/definition';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import type { Db } from '../src/db/client';
import { centers, organisations, patients, projects, tenants, users } from '../src/db/schema';
import { hashPassword } from '../src/lib/password';
import type { TestApp } from './test-app';

const suffix = () => randomBytes(3).toString('hex');

/**
 * One argon2id hash per password per test process: every test account shares a password, and hashing is the costliest
 * part of a factory call. Each hash is still a real one with its own salt (sign-in verifies it as in production); only
 * the salt is shared between accounts of a test file, which no test tells apart.
 */
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
};

/** A hospital tenant with one organisation, as an administrator would create it. */
export async function buildTenant(db: Db, overrides: Partial<typeof tenants.$inferInsert> = {}) {
  const s = suffix();
  const [tenant] = await db
    .insert(tenants)
    .values({ code: `h${s}`, name: `测试医院${s}`, type: 'HOSPITAL', ...overrides })
    .returning();
  if (!tenant) throw new Error('tenant not created');
  const [org] = await db.insert(organisations).values({ tenantId: tenant.id, name: tenant.name }).returning();
  return { tenant, organisationId: org?.id ?? null };
}

export async function tenantIdOf(db: Db, code: string): Promise<string> {
  const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code));
  if (!row) throw new Error(`tenant ${code} missing`);
  return row.id;
}

/** A user with a real argon2id password (default 'Passw0rd!x'). */
export async function buildUser(
  db: Db,
  tenantId: string,
  overrides: Partial<typeof users.$inferInsert> & { password?: string } = {},
) {
  const { password = 'Passw0rd!x', ...rest } = overrides;
  const [user] = await db
    .insert(users)
    .values({
      tenantId,
      username: `doctor_${suffix()}`,
      name: '测试医生',
      passwordHash: await hashOf(password),
      tenantRoleCode: 'tenant_member',
      ...rest,
    })
    .returning();
  if (!user) throw new Error('user not created');
  return { ...user, password };
}

export async function buildProject(
  db: Db,
  tenantId: string,
  ownerId: string,
  overrides: Partial<typeof projects.$inferInsert> = {},
) {
  const s = suffix();
  const [project] = await db
    .insert(projects)
    .values({ tenantId, ownerId, code: `P-${s}`, name: `测试项目${s}`, status: 'active', ...overrides })
    .returning();
  if (!project) throw new Error('project not created');
  return project;
}

let patientSeq = 0;
/** A patient of the project at a new center of its own (records reference a patient; the center rule needs one). */
export async function buildPatient(db: Db, tenantId: string, projectId: string) {
  const [org] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.tenantId, tenantId))
    .limit(1);
  patientSeq += 1;
  const code = `F${suffix()}`;
  const [center] = await db
    .insert(centers)
    .values({ tenantId, projectId, organisationId: org?.id ?? '', code, name: '测试中心' })
    .returning({ id: centers.id });
  const [patient] = await db
    .insert(patients)
    .values({
      tenantId,
      projectId,
      centerId: center?.id ?? '',
      seq: patientSeq,
      patientNo: `${code}-${String(patientSeq).padStart(4, '0')}`,
      name: '测试患者',
    })
    .returning({ id: patients.id, patientNo: patients.patientNo });
  if (!patient) throw new Error('patient not created');
  return patient;
}

/*
 * The scenario API: the data a test needs, made through the app's own calls where the app does more than insert a
 * row (a project brings its owner membership and default center, a member a role and a center, a CRF its draft and
 * immutable published version, a patient its number, audit and follow-up). Each call returns ids and, for people, a
 * signed-in token. Use with `createBareTestApp()` (reference data only: built-in roles and menus).
 * A call acting for a project's owner (center, roleIdOf, member) first makes that project the owner's current one.
 */

/** The password of every account the scenario API makes. */
export const TEST_PASSWORD = 'Passw0rd!x';

type Envelope<T> = { status: number; message: string; data: T };

/** A signed-in account. */
export type Account = { id: string; username: string; name: string; password: string; tenantId: string; token: string };

export type Hospital = { tenantId: string; code: string; name: string; organisationId: string; admin: Account };

export type TestProject = {
  id: string;
  code: string;
  name: string;
  tenantId: string;
  /** The default center C01 at the owner's organisation, made with the project. */
  defaultCenterId: string;
  /** The owner, signed in and in the project. */
  owner: Account;
};

async function expectOk<T>(res: { statusCode: number; body: string; json: () => unknown }, what: string): Promise<T> {
  if (res.statusCode !== 200) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
  return (res.json() as Envelope<T>).data;
}

/** An account of the tenant (default role tenant_member, password TEST_PASSWORD), signed in through the API. */
export async function signedInUser(
  t: TestApp,
  tenantId: string,
  overrides: Partial<typeof users.$inferInsert> & { password?: string } = {},
): Promise<Account> {
  const [org] = await t.db
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.tenantId, tenantId))
    .orderBy(organisations.createdAt)
    .limit(1);
  const user = await buildUser(t.db, tenantId, {
    organisationId: org?.id ?? null,
    password: TEST_PASSWORD,
    ...overrides,
  });
  const token = await t.login(user.username, user.password);
  return { id: user.id, username: user.username, name: user.name, password: user.password, tenantId, token };
}

/** A hospital tenant with its organisation and a signed-in institution administrator (tenant_admin). */
export async function hospital(
  t: TestApp,
  overrides: { tenant?: Partial<typeof tenants.$inferInsert>; admin?: Partial<typeof users.$inferInsert> } = {},
): Promise<Hospital> {
  const { tenant, organisationId } = await buildTenant(t.db, overrides.tenant);
  if (!organisationId) throw new Error('organisation not created');
  const admin = await signedInUser(t, tenant.id, {
    name: '测试管理员',
    tenantRoleCode: BUILT_IN_ROLES.tenantAdmin.code,
    ...overrides.admin,
  });
  return { tenantId: tenant.id, code: tenant.code, name: tenant.name, organisationId, admin };
}

/** The system tenant (code `sys`, as the seed names it) with a signed-in platform administrator (sys_admin). */
export async function systemAdmin(t: TestApp, overrides: Partial<typeof users.$inferInsert> = {}): Promise<Account> {
  const { tenant } = await buildTenant(t.db, { code: SYS_TENANT_CODE, name: '系统租户', type: 'SYSTEM' });
  return signedInUser(t, tenant.id, {
    name: '平台管理员',
    userType: 'ADMIN',
    tenantRoleCode: BUILT_IN_ROLES.sysAdmin.code,
    ...overrides,
  });
}

/** Makes the project the session's current project (`GET web-project/change`). */
export async function enterProject(t: TestApp, token: string, projectId: string): Promise<void> {
  await expectOk(await t.api({ method: 'GET', url: '/web-project/change', query: { projectId }, token }), 'enter');
}

/**
 * A project created by `owner` through `POST web-project` (owner membership and default center as the app makes
 * them), active unless told, and entered by the owner's session.
 */
export async function project(
  t: TestApp,
  owner: Account,
  input: {
    code?: string;
    name?: string;
    diseaseArea?: string;
    description?: string;
    status?: 'draft' | 'active';
    parentId?: string;
  } = {},
): Promise<TestProject> {
  const s = suffix().toUpperCase();
  const created = await expectOk<{ id: string; projectCode: string; projectName: string }>(
    await t.api({
      method: 'POST',
      url: '/web-project',
      token: owner.token,
      payload: { code: `P${s}`, name: `测试项目${s}`, status: 'active', ...input },
    }),
    'project create',
  );
  await enterProject(t, owner.token, created.id);
  const [center] = await t.db
    .select({ id: centers.id })
    .from(centers)
    .where(and(eq(centers.projectId, created.id), eq(centers.isDefault, true)));
  return {
    id: created.id,
    code: created.projectCode,
    name: created.projectName,
    tenantId: owner.tenantId,
    defaultCenterId: center?.id ?? '',
    owner,
  };
}

/** A center of the project at a new organisation of the tenant, through `POST project-center`. */
export async function center(
  t: TestApp,
  p: TestProject,
  input: { code?: string; name?: string } = {},
): Promise<{ id: string; code: string; name: string; organisationId: string }> {
  const s = suffix().toUpperCase();
  const name = input.name ?? `测试分院${s}`;
  await enterProject(t, p.owner.token, p.id);
  const org = await expectOk<{ id: string }>(
    await t.api({ method: 'POST', url: '/web-project/org', token: p.owner.token, payload: { name } }),
    'organisation create',
  );
  const created = await expectOk<{ id: string; code: string; name: string }>(
    await t.api({
      method: 'POST',
      url: '/project-center',
      token: p.owner.token,
      payload: { code: input.code ?? `C${s}`, name, organisationId: org.id },
    }),
    'center create',
  );
  return { ...created, organisationId: org.id };
}

/** The id of a role of the project by code (built-in: project_owner, data_entry, followup_nurse, monitor, …). */
export async function roleIdOf(t: TestApp, p: TestProject, code: string): Promise<string> {
  await enterProject(t, p.owner.token, p.id);
  const list = await expectOk<{ id: string; code: string }[]>(
    await t.api({ method: 'GET', url: '/project-role/list', token: p.owner.token }),
    'role list',
  );
  const role = list.find((r) => r.code === code);
  if (!role) throw new Error(`role ${code} missing`);
  return role.id;
}

/**
 * A new (or the given) account of the project's tenant added as a member through `POST project-member` with the role (by code) and
 * center (null: all centers; default the project's default center), signed in and in the project.
 */
export async function member(
  t: TestApp,
  p: TestProject,
  role: string,
  options: {
    centerId?: string | null;
    /** Fields of the new account; or `account`: an existing account of the tenant to add instead. */
    user?: Partial<typeof users.$inferInsert>;
    account?: Account;
  } = {},
): Promise<Account & { memberId: string }> {
  const account = options.account ?? (await signedInUser(t, p.tenantId, options.user));
  const added = await expectOk<{ id: string }>(
    await t.api({
      method: 'POST',
      url: '/project-member',
      token: p.owner.token,
      payload: {
        userId: account.id,
        roleId: await roleIdOf(t, p, role),
        centerId: options.centerId === undefined ? p.defaultCenterId : options.centerId,
      },
    }),
    'member add',
  );
  await enterProject(t, account.token, p.id);
  return { ...account, memberId: added.id };
}

/**
 * A definition of one category with the given forms, the default missing-value codes. A form is given by key as its
 * fields (titled with its key) or as the form without its key (a title, `repeating`, `followUp`, …).
 */
export function crfDefinition(
  forms: Record<string, FormDefinition['fields'] | Omit<FormDefinition, 'key'>>,
  category: { key?: string; title?: string } = {},
): Definition {
  return {
    missingCodes: DEFAULT_MISSING_CODES,
    categories: [
      {
        key: category.key ?? 'base',
        title: category.title ?? '基线',
        forms: Object.entries(forms).map(([key, form]) =>
          Array.isArray(form) ? { key, title: key, fields: form } : { key, ...form },
        ),
      },
    ],
  };
}

/**
 * Saves the definition over the current project's draft and publishes it (`PUT form-definition/draft`, `POST
 * form-definition/publish`) with a token holding database.config; returns the published version.
 */
export async function publishCrf(
  t: TestApp,
  token: string,
  definition: Definition,
): Promise<{ id: string; versionNo: number }> {
  const draft = await expectOk<{ revision: number }>(
    await t.api({ method: 'GET', url: '/form-definition/draft', token }),
    'draft',
  );
  const saved = await expectOk<{ revision: number; problems: unknown[] }>(
    await t.api({
      method: 'PUT',
      url: '/form-definition/draft',
      token,
      payload: { revision: draft.revision, definition },
    }),
    'draft save',
  );
  if (saved.problems.length > 0) throw new Error(`definition has problems: ${JSON.stringify(saved.problems)}`);
  return expectOk<{ id: string; versionNo: number }>(
    await t.api({ method: 'POST', url: '/form-definition/publish', token, payload: { revision: saved.revision } }),
    'publish',
  );
}

/** A patient of the token's current project through `POST patient-info` (name default 测试患者). */
export async function patient(
  t: TestApp,
  token: string,
  input: Partial<PatientCreateRequest> = {},
): Promise<{ id: string; patientNo: string; centerId: string }> {
  return expectOk(
    await t.api({ method: 'POST', url: '/patient-info', token, payload: { name: '测试患者', ...input } }),
    'patient create',
  );
}

/**
 * A follow-up plan of the token's current project through `POST followup/plan` (token holding followup.config):
 * by default a relative plan anchored on the enrolment date with one visit a month after, assigned by hand. Activated
 * through `POST followup/plan/activate` unless `activate: false`; answers the plan as it then stands and what the
 * activation did (null when not activated).
 */
export async function followupPlan(
  t: TestApp,
  token: string,
  input: Partial<PlanInput> = {},
  options: { activate?: boolean } = {},
): Promise<{ plan: PlanVO; applied: PlanApplyResponse | null }> {
  const created = await expectOk<PlanVO>(
    await t.api({
      method: 'POST',
      url: '/followup/plan',
      token,
      payload: {
        name: `随访计划${suffix()}`,
        kind: 'relative',
        anchor: { type: 'enrol' },
        visits: [
          {
            name: '1个月随访',
            offset: 1,
            offsetUnit: 'month',
            windowBefore: 7,
            windowAfter: 7,
            contactMethod: 'phone',
          },
        ],
        assignMode: 'manual',
        rule: null,
        ...input,
      },
    }),
    'follow-up plan create',
  );
  if (options.activate === false) return { plan: created, applied: null };
  const applied = await expectOk<PlanApplyResponse>(
    await t.api({ method: 'POST', url: '/followup/plan/activate', token, payload: { id: created.id } }),
    'follow-up plan activate',
  );
  const plan = await expectOk<PlanVO>(
    await t.api({ method: 'GET', url: '/followup/plan/detail', query: { id: created.id }, token }),
    'follow-up plan detail',
  );
  return { plan, applied };
}
