import type { Executor } from '../db/client';
import { chainHeadHash, chainRows } from './audit-chain.repository';

export type AuditChainReport = {
  ok: boolean;
  /** Events of the tenant. */
  events: number;
  /** The first event (by id) whose content no longer matches its hash, if any. */
  alteredId?: number;
  /** True when following the links from the head does not reach every event (one was removed or inserted). */
  brokenLinks?: boolean;
};

/**
 * Recomputes the tenant's audit hash chain (see migration 0006): every event must match its hash, and the links from
 * the chain head must visit every event exactly once.
 */
export async function verifyAuditChain(db: Executor, tenantId: string | null): Promise<AuditChainReport> {
  const rows = await chainRows(db, tenantId);
  const altered = rows.find((r) => r.hash !== r.expected);
  const byHash = new Map(rows.map((r) => [r.hash, r]));
  let cursor = await chainHeadHash(db, tenantId);
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
