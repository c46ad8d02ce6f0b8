import type { Executor } from '../../db/client';
import { verifyAuditChain } from '../../plugins/audit-chain';
import { chainHeadHash, chainRows, chainTenants, type ChainRow } from '../../plugins/audit-chain.repository';

/** Where a tenant's chain first breaks. */
export type ChainBreak = {
  /** The event where the break shows (the edited event, or the one whose predecessor is gone). */
  eventId: number | null;
  at: string | null;
  /** What differs, in Chinese. */
  detail: string;
};

export type TenantChainResult = {
  /** The tenant id, or null for events without a tenant (failed sign-ins). */
  tenantId: string | null;
  tenantCode: string | null;
  ok: boolean;
  events: number;
  firstBreak?: ChainBreak;
};

const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '空');
const iso = (at: Date | string) => new Date(at).toISOString();

/**
 * The first broken link of a chain the verifier found broken: the earliest (by id) of an event whose content no longer
 * matches its hash, an event whose predecessor is missing or was rewritten (walking back from the chain head), the
 * head pointing at a missing event, or an event the walk never reaches.
 */
export async function findFirstBreak(db: Executor, tenantId: string | null): Promise<ChainBreak | null> {
  const rows = await chainRows(db, tenantId);
  const headHash = await chainHeadHash(db, tenantId);
  const byHash = new Map(rows.map((r) => [r.hash, r]));
  // who links to a hash: tells an edited content (the next event still points at the stored hash) from a rewritten hash
  const linkedFrom = new Set(rows.map((r) => r.prev_hash));

  const candidates: { id: number; brk: ChainBreak }[] = [];
  for (const r of rows) {
    if (r.hash === r.expected) continue;
    const rewritten = r.hash !== headHash && !linkedFrom.has(r.hash);
    candidates.push({
      id: Number(r.id),
      brk: {
        eventId: Number(r.id),
        at: iso(r.at),
        detail: rewritten
          ? `内容与哈希不符（存储 ${short(r.hash)}，重新计算 ${short(r.expected)}），哈希本身也被改写`
          : `内容已被修改：重新计算的哈希 ${short(r.expected)} 与存储的 ${short(r.hash)} 不符`,
      },
    });
    break;
  }

  const visited = new Set<string>();
  let cursor = headHash;
  let last: ChainRow | null = null;
  while (cursor !== null && visited.size <= rows.length) {
    const row = byHash.get(cursor);
    if (!row) {
      if (last) {
        candidates.push({
          id: Number(last.id),
          brk: {
            eventId: Number(last.id),
            at: iso(last.at),
            detail: `前一事件缺失或被改写：该事件指向的前一哈希 ${short(cursor)} 不存在`,
          },
        });
      } else {
        const newest = rows.at(-1);
        candidates.push({
          id: newest ? Number(newest.id) + 0.5 : Number.MAX_SAFE_INTEGER,
          brk: {
            eventId: newest ? Number(newest.id) : null,
            at: newest ? iso(newest.at) : null,
            detail: `链头 ${short(cursor)} 指向的最新事件缺失${newest ? `（在事件 ${newest.id} 之后被删除）` : ''}`,
          },
        });
      }
      break;
    }
    visited.add(row.id);
    last = row;
    cursor = row.prev_hash;
  }
  const unreached = rows.find((r) => !visited.has(r.id));
  if (unreached && cursor === null) {
    candidates.push({
      id: Number(unreached.id),
      brk: { eventId: Number(unreached.id), at: iso(unreached.at), detail: '事件不在哈希链上（被插入或链被截断）' },
    });
  }
  candidates.sort((a, b) => a.id - b.id);
  return candidates[0]?.brk ?? null;
}

/** Verifies every tenant's chain with `verifyAuditChain` and locates the first broken link of each broken one. */
export async function verifyAllAuditChains(db: Executor): Promise<TenantChainResult[]> {
  const results: TenantChainResult[] = [];
  for (const { tenantId, tenantCode } of await chainTenants(db)) {
    const report = await verifyAuditChain(db, tenantId);
    const result: TenantChainResult = { tenantId, tenantCode, ok: report.ok, events: report.events };
    if (!report.ok) {
      result.firstBreak = (await findFirstBreak(db, tenantId)) ?? {
        eventId: report.alteredId ?? null,
        at: null,
        detail: '哈希链断开',
      };
    }
    results.push(result);
  }
  return results;
}

/** One line per tenant: `OK n events` or the first broken link. */
export function formatChainReport(results: TenantChainResult[]): string[] {
  if (results.length === 0) return ['没有审计事件 / no audit events'];
  return results.map((r) => {
    const name = r.tenantId === null ? '(无租户)' : `${r.tenantCode ?? '?'} ${r.tenantId}`;
    if (r.ok) return `${name}: OK ${r.events} events`;
    const b = r.firstBreak;
    return `${name}: BROKEN at event ${b?.eventId ?? '?'} (${b?.at ?? '?'}): ${b?.detail ?? ''} [${r.events} events]`;
  });
}
