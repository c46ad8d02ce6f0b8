import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { centers, organisations, patients, projects, tenants, users } from '../src/db/schema';
import { hashPassword } from '../src/lib/password';

const suffix = () => randomBytes(3).toString('hex');

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
      passwordHash: await hashPassword(password),
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
