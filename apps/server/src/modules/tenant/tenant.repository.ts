import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organisations, projects, tenants, users } from '../../db/schema';
import { escapeLike } from '../../lib/escape-like';
import { pageTotal } from '../../lib/page-total';

function tenantSelect(db: Executor) {
  return db
    .select({
      id: tenants.id,
      code: tenants.code,
      name: tenants.name,
      type: tenants.type,
      createdAt: tenants.createdAt,
      userCount: sql<number>`(select count(*)::int from ${users} u where u.tenant_id = "tenants"."id")`,
      projectCount: sql<number>`(select count(*)::int from ${projects} p where p.tenant_id = "tenants"."id")`,
    })
    .from(tenants);
}

export type TenantRow = Awaited<ReturnType<ReturnType<typeof tenantSelect>['execute']>>[number];

export async function pageTenants(db: Executor, q: { keyword?: string; current: number; size: number }) {
  const conditions: (SQL | undefined)[] = [];
  if (q.keyword) {
    const p = escapeLike(q.keyword);
    conditions.push(or(ilike(tenants.code, p), ilike(tenants.name, p)));
  }
  const where = and(...conditions);
  const offset = (q.current - 1) * q.size;
  const records = await tenantSelect(db)
    .where(where)
    .orderBy(desc(tenants.createdAt), tenants.code)
    .limit(q.size)
    .offset(offset);
  const total = await pageTotal({ offset, size: q.size, rows: records.length }, async () => {
    const [c] = await db.select({ n: count() }).from(tenants).where(where);
    return c?.n ?? 0;
  });
  return { records, total };
}

export async function findTenantRow(db: Executor, id: string) {
  const [row] = await tenantSelect(db).where(eq(tenants.id, id)).limit(1);
  return row;
}

export async function tenantCodeTaken(db: Executor, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(sql`lower(${tenants.code}) = lower(${code})`)
    .limit(1);
  return row !== undefined;
}

export async function insertHospitalTenant(db: Executor, code: string, name: string, at: Date) {
  const [tenant] = await db
    .insert(tenants)
    .values({ code, name, type: 'HOSPITAL', createdAt: at })
    .returning({ id: tenants.id });
  if (!tenant) throw new Error('tenant insert returned no row');
  const [org] = await db
    .insert(organisations)
    .values({ tenantId: tenant.id, name, createdAt: at })
    .returning({ id: organisations.id });
  if (!org) throw new Error('organisation insert returned no row');
  return { tenantId: tenant.id, organisationId: org.id };
}
