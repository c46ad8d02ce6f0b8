import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';

export type AuditChainReport = {
  ok: boolean;
  /** Events of the tenant. */
  events: number;
  /** The first event (by id) whose content no longer matches its hash, if any. */
  alteredId?: number;
  /** True when following the links from the head does not reach every event (one was removed or inserted). */
  brokenLinks?: boolean;
};

type Row = { id: string; hash: string | null; prev_hash: string | null; expected: string };

/**
 * Recomputes the tenant's audit hash chain (see migration 0006): every event must match its hash, and the links from
 * the chain head must visit every event exactly once.
 */
export async function verifyAuditChain(db: Executor, tenantId: string | null): Promise<AuditChainReport> {
  const tenantFilter = tenantId === null ? sql`tenant_id is null` : sql`tenant_id = ${tenantId}`;
  const result = await db.execute(sql`
    select id::text as id, hash, prev_hash,
      audit_event_hash(prev_hash, id, tenant_id, actor_id, at, action, entity_type, entity_id, old_value, new_value,
        reason, request_id, ip) as expected
    from audit_events where ${tenantFilter} order by id`);
  const rows = result.rows as Row[];
  const altered = rows.find((r) => r.hash !== r.expected);
  const head = await db.execute(sql`select hash from audit_chain_heads where tenant_key = ${tenantId ?? '-'}`);
  const byHash = new Map(rows.map((r) => [r.hash, r]));
  let cursor = (head.rows[0] as { hash?: string } | undefined)?.hash || null;
  let visited = 0;
  while (cursor !== null && visited <= rows.length) {
    const row = byHash.get(cursor);
    if (!row) break;
    visited++;
    cursor = row.prev_hash;
  }
  const brokenLinks = visited !== rows.length || cursor !== null;
  return {
    ok: !altered && !brokenLinks,
    events: rows.length,
    ...(altered ? { alteredId: Number(altered.id) } : {}),
    ...(brokenLinks ? { brokenLinks } : {}),
  };
}
