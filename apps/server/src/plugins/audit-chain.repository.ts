import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';

/** An audit event of a chain with its stored hash, its link and the hash its content gives now. */
export type ChainRow = {
  id: string;
  at: Date | string;
  hash: string | null;
  prev_hash: string | null;
  expected: string;
};

/** The tenant's (null: tenant-less) audit events in id order, each with the hash recomputed from its content. */
export async function chainRows(db: Executor, tenantId: string | null): Promise<ChainRow[]> {
  const tenantFilter = tenantId === null ? sql`tenant_id is null` : sql`tenant_id = ${tenantId}`;
  const result = await db.execute(sql`
    select id::text as id, at, hash, prev_hash,
      audit_event_hash(prev_hash, id, tenant_id, actor_id, at, action, entity_type, entity_id, old_value, new_value,
        reason, request_id, ip) as expected
    from audit_events where ${tenantFilter} order by id`);
  return result.rows as ChainRow[];
}

/** The hash at the head of the tenant's chain, or null when it has none. */
export async function chainHeadHash(db: Executor, tenantId: string | null): Promise<string | null> {
  const head = await db.execute(sql`select hash from audit_chain_heads where tenant_key = ${tenantId ?? '-'}`);
  return (head.rows[0] as { hash?: string } | undefined)?.hash || null;
}

/** Every tenant that has an audit trail (events or a chain head), with its code. */
export async function chainTenants(db: Executor): Promise<{ tenantId: string | null; tenantCode: string | null }[]> {
  const result = await db.execute(sql`
    select k.tenant_id::text as tenant_id, t.code as tenant_code
    from (
      select distinct tenant_id from audit_events
      union
      select case when tenant_key = '-' then null else tenant_key::uuid end from audit_chain_heads
    ) k
    left join tenants t on t.id = k.tenant_id
    order by t.code nulls first, k.tenant_id`);
  return (result.rows as { tenant_id: string | null; tenant_code: string | null }[]).map((r) => ({
    tenantId: r.tenant_id,
    tenantCode: r.tenant_code,
  }));
}
