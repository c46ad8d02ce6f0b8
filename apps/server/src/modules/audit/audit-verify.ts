import type { Db, Executor } from '../../db/client';
import type { AuditSealKey } from '../../lib/audit-seal-key';
import type { HeadStore } from './audit-head-store';
import { headSignature, sameMac, sealMac, type SealHead, type SealableEvent } from './audit-seal-mac';
import {
  latestHead,
  sealChains,
  sealedFrontier,
  sealPage,
  tenantCodeOf,
  unsealedEvents,
  type SealWithEvent,
} from './audit-seal.repository';

/** What verification finds wrong with a chain; any of them means the trail was tampered with (or lost). */
export type SealProblemKind =
  /** An event's content no longer matches its seal. */
  | 'edited'
  /** A sealed event is gone, or a seal is missing from the middle of the chain. */
  | 'deleted'
  /** An event carries the content sealed for another position of the chain. */
  | 'reordered'
  /** An event without a seal that the sealer already passed: inserted afterwards, or its seal removed. */
  | 'inserted'
  /** A seal does not link to the one before it. */
  | 'broken-link'
  /** The newest seals are gone: a signed head names a seal the chain no longer has. */
  | 'truncated'
  /** A head's signature is not the key's. */
  | 'bad-head-signature'
  /** The signed head does not match the chain's newest seal, or the head outside the database. */
  | 'head-mismatch'
  /** A sealed chain without its signed head (in the database or outside it). */
  | 'head-missing';

export type SealProblem = {
  kind: SealProblemKind;
  /** The event concerned, when there is one. */
  eventId: number | null;
  /** The seal's position in the chain, when there is one. */
  seq: number | null;
  /** What differs, in Chinese (ids and positions only: no value of the event). */
  detail: string;
};

export type TenantSealResult = {
  /** The chain: the tenant id, '-' for events without a tenant (failed sign-ins of unknown names). */
  tenantKey: string;
  tenantId: string | null;
  tenantCode: string | null;
  ok: boolean;
  /** Seals whose event is present and matches. */
  sealed: number;
  /** Events not sealed yet (never counted as valid). */
  unsealed: number;
  problems: SealProblem[];
};

const PAGE = 2000;
/** Mismatching seals compared pairwise to tell a swap from an edit (more are reported as edits). */
const REORDER_LIMIT = 500;
/** Problems listed per chain and kind at most (the count says how many more). */
const LIST_LIMIT = 50;

type Mismatch = { seal: SealWithEvent; event: SealableEvent };
/** The heads of the head store, read before the database (see verifyAuditSeals). */
type StoredHeads = Map<string, SealHead | null | 'unreadable'>;

/**
 * Verifies one chain: walks its seals by seq (links, each mac recomputed from the event row and the key, each
 * sealed event present), counts the unsealed events and flags those the sealer already passed, and checks the newest
 * signed head in the database and the one outside it (the head store) against the chain.
 */
async function verifyChain(
  db: Executor,
  key: AuditSealKey,
  stored: StoredHeads,
  tenantKey: string,
  tenantCode: string | null,
  frontier: Awaited<ReturnType<typeof sealedFrontier>>,
): Promise<TenantSealResult> {
  const problems: SealProblem[] = [];
  const mismatches: Mismatch[] = [];
  const macAt = new Map<number, string>();
  let sealed = 0;
  let expectedSeq = 1;
  let prev: { seq: number; mac: string } | null = null;

  for (let after = 0; ;) {
    const page = await sealPage(db, tenantKey, after, PAGE);
    for (const s of page) {
      macAt.set(s.seq, s.mac);
      if (s.seq !== expectedSeq) {
        problems.push({
          kind: 'deleted',
          eventId: null,
          seq: expectedSeq,
          detail: `封存序号 ${expectedSeq}${s.seq - 1 > expectedSeq ? `–${s.seq - 1}` : ''} 缺失：已封存的事件连同封存记录被删除`,
        });
      }
      if (prev && s.seq === prev.seq + 1 && !sameMac(s.prevMac, prev.mac)) {
        problems.push({
          kind: 'broken-link',
          eventId: s.eventId,
          seq: s.seq,
          detail: `封存序号 ${s.seq}（事件 ${s.eventId}）未链接到前一封存`,
        });
      }
      if (!s.event) {
        problems.push({
          kind: 'deleted',
          eventId: s.eventId,
          seq: s.seq,
          detail: `事件 ${s.eventId}（封存序号 ${s.seq}）已被删除`,
        });
      } else if (s.event.txId !== s.txId || !sameMac(sealMac(key, { tenantKey, ...s }, s.event), s.mac)) {
        mismatches.push({ seal: s, event: s.event });
      } else {
        sealed++;
      }
      expectedSeq = s.seq + 1;
      prev = { seq: s.seq, mac: s.mac };
    }
    if (page.length < PAGE) break;
    after = page.at(-1)?.seq ?? after;
  }
  problems.push(...classifyMismatches(key, tenantKey, mismatches));
  const last = prev;

  const unsealed = await unsealedEvents(db, tenantKey, frontier, LIST_LIMIT);
  for (const e of unsealed.belowFrontier) {
    problems.push({
      kind: 'inserted',
      eventId: e.id,
      seq: null,
      detail: `事件 ${e.id}（${e.at}）早于已封存的事件却没有封存：事后插入，或其封存被删除`,
    });
  }
  if (unsealed.belowFrontierCount > unsealed.belowFrontier.length) {
    problems.push({
      kind: 'inserted',
      eventId: null,
      seq: null,
      detail: `另有 ${unsealed.belowFrontierCount - unsealed.belowFrontier.length} 个这样的未封存事件`,
    });
  }

  problems.push(...checkHead(key, tenantKey, last, macAt, await latestHead(db, tenantKey), 'db'));
  const outside = stored.get(tenantKey) ?? null;
  if (outside === 'unreadable') {
    problems.push({ kind: 'head-missing', eventId: null, seq: null, detail: '库外链头无法读取（格式不正确）' });
  } else {
    problems.push(...checkHead(key, tenantKey, last, macAt, outside, 'store'));
  }

  problems.sort((a, b) => (a.seq ?? Number.MAX_SAFE_INTEGER) - (b.seq ?? Number.MAX_SAFE_INTEGER));
  return {
    tenantKey,
    tenantId: tenantKey === '-' ? null : tenantKey,
    tenantCode,
    ok: problems.length === 0,
    sealed,
    unsealed: unsealed.count,
    problems,
  };
}

/**
 * Seals whose event no longer matches: a swap when the event's content, put at another mismatching seal's place
 * (that seal's event id), gives that seal's mac; an edit otherwise.
 */
function classifyMismatches(key: AuditSealKey, tenantKey: string, mismatches: Mismatch[]): SealProblem[] {
  const comparable = mismatches.length <= REORDER_LIMIT;
  return mismatches.map(({ seal, event }) => {
    const home = comparable
      ? mismatches.find(
          (other) =>
            other.seal !== seal &&
            sameMac(
              sealMac(key, { tenantKey, ...other.seal }, { ...event, id: String(other.seal.eventId) }),
              other.seal.mac,
            ),
        )
      : undefined;
    return home
      ? {
          kind: 'reordered' as const,
          eventId: seal.eventId,
          seq: seal.seq,
          detail: `事件 ${seal.eventId}（封存序号 ${seal.seq}）的内容是封存序号 ${home.seal.seq}（事件 ${home.seal.eventId}）的：事件顺序被调换`,
        }
      : {
          kind: 'edited' as const,
          eventId: seal.eventId,
          seq: seal.seq,
          detail: `事件 ${seal.eventId}（封存序号 ${seal.seq}，${event.at}）的内容与封存不符：已被修改`,
        };
  });
}

/**
 * A signed head against the chain. The database's newest head must be the chain's newest seal (both are written in
 * one transaction). The head outside the database is written after the commit, so it may lag behind, but the seal
 * it names must still be in the chain with its mac: a head beyond the chain's end shows a removed tail.
 */
function checkHead(
  key: AuditSealKey,
  tenantKey: string,
  last: { seq: number; mac: string } | null,
  macAt: Map<number, string>,
  head: SealHead | null,
  where: 'db' | 'store',
): SealProblem[] {
  const place = where === 'db' ? '库内链头' : '库外链头';
  if (!head) {
    return last
      ? [{ kind: 'head-missing', eventId: null, seq: null, detail: `${place}缺失（链已封存到序号 ${last.seq}）` }]
      : [];
  }
  if (!sameMac(headSignature(key, head), head.signature)) {
    return [
      { kind: 'bad-head-signature', eventId: null, seq: head.seq, detail: `${place}（序号 ${head.seq}）签名无效` },
    ];
  }
  if (!last || head.seq > last.seq) {
    return [
      {
        kind: 'truncated',
        eventId: null,
        seq: head.seq,
        detail: `${place}已签名到封存序号 ${head.seq}，链却只到 ${last?.seq ?? 0}：最新的已封存事件被删除`,
      },
    ];
  }
  if (where === 'db' && head.seq !== last.seq) {
    return [
      {
        kind: 'head-mismatch',
        eventId: null,
        seq: head.seq,
        detail: `库内链头停在封存序号 ${head.seq}，链却到 ${last.seq}`,
      },
    ];
  }
  if (!sameMac(macAt.get(head.seq), head.mac)) {
    return [
      {
        kind: 'head-mismatch',
        eventId: null,
        seq: head.seq,
        detail: `${place}（序号 ${head.seq}）与该序号的封存不符：链被改写`,
      },
    ];
  }
  return [];
}

/**
 * Verifies every chain: those the database knows of (events, seals, heads) and those only the head store knows of
 * (a chain removed whole). A sealer may be at work meanwhile: the head store is read first (a head there was
 * committed before it was written), then the database in one repeatable-read snapshot, so the chain, its heads and
 * its unsealed events are seen at one moment and never look truncated or unsealed by the timing alone.
 */
export async function verifyAuditSeals(db: Db, key: AuditSealKey, heads: HeadStore): Promise<TenantSealResult[]> {
  const stored: StoredHeads = new Map();
  for (const tenantKey of await heads.list()) {
    stored.set(tenantKey, await heads.read(tenantKey).catch(() => 'unreadable' as const));
  }
  return db.transaction(
    async (tx) => {
      const chains = await sealChains(tx);
      const known = new Set(chains.map((c) => c.tenantKey));
      for (const tenantKey of stored.keys()) {
        if (!known.has(tenantKey)) chains.push({ tenantKey, tenantCode: await tenantCodeOf(tx, tenantKey) });
      }
      const frontier = await sealedFrontier(tx);
      const results: TenantSealResult[] = [];
      for (const { tenantKey, tenantCode } of chains)
        results.push(await verifyChain(tx, key, stored, tenantKey, tenantCode, frontier));
      return results;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** One line per chain (`OK sealed n, unsealed m` or `BROKEN …`), and an indented line per problem. */
export function formatSealReport(results: TenantSealResult[]): string[] {
  if (results.length === 0) return ['没有审计事件 / no audit events'];
  return results.flatMap((r) => {
    const name = r.tenantId === null ? '(无租户)' : `${r.tenantCode ?? '?'} ${r.tenantId}`;
    const counts = `sealed ${r.sealed}, unsealed ${r.unsealed}`;
    if (r.ok) return [`${name}: OK ${counts}`];
    return [
      `${name}: BROKEN ${counts}, ${r.problems.length} problem(s)`,
      ...r.problems.map((p) => `  - ${p.kind}${p.eventId !== null ? ` event ${p.eventId}` : ''}: ${p.detail}`),
    ];
  });
}
