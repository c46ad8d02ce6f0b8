import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditSealHeads, auditSeals } from '../../db/schema';
import type { SealableEvent, SealHead } from './audit-seal-mac';

/** The advisory lock of the sealer: one sealer transaction at a time in the whole cluster. */
const SEALER_LOCK = 7_340_117_113_001;

/** The columns of an event as its seal covers them (see SealableEvent), read as PostgreSQL's own text. */
const EVENT_TEXT = sql.raw(`e.id::text as id, e.tx_id::text as "txId", e.tenant_id::text as "tenantId",
  e.project_id::text as "projectId", e.actor_id::text as "actorId",
  to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, e.action, e.entity_type as "entityType",
  e.entity_id as "entityId", e.old_value::text as "oldValue", e.new_value::text as "newValue", e.reason,
  e.request_id as "requestId", e.ip`);

const rowsOf = async <T>(db: Executor, query: SQL): Promise<T[]> => (await db.execute(query)).rows as T[];

/** Takes the sealer's lock for the rest of the transaction; false when another sealer holds it. */
export async function tryLockSealer(tx: Executor): Promise<boolean> {
  const [row] = await rowsOf<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${SEALER_LOCK}::bigint) as ok`);
  return row?.ok === true;
}

/** The newest sealed event in sealing order (tx_id, id), or null before the first seal. */
export type SealFrontier = { txId: string; eventId: number };

export async function sealedFrontier(db: Executor): Promise<SealFrontier | null> {
  // (aliases differ from the columns: ORDER BY would otherwise sort by the text)
  const [row] = await rowsOf<{ tx: string; event: string }>(
    db,
    sql`select s.tx_id::text as tx, s.event_id::text as event from ${auditSeals} s
        order by s.tx_id desc, s.event_id desc limit 1`,
  );
  return row ? { txId: row.tx, eventId: Number(row.event) } : null;
}

/**
 * The next events to seal, in (tx_id, id) order after the frontier: only events of transactions below the xmin of
 * this statement's snapshot. Every such transaction has ended (committed and visible here, or rolled back), so no
 * event can ever appear below that xmin later: sealing up to it skips nothing.
 */
export async function eventsToSeal(db: Executor, after: SealFrontier | null, limit: number): Promise<SealableEvent[]> {
  const afterFrontier = after ? sql`and (e.tx_id, e.id) > (${after.txId}::xid8, ${after.eventId}::bigint)` : sql``;
  return rowsOf<SealableEvent>(
    db,
    sql`select ${EVENT_TEXT} from audit_events e
        where e.tx_id < pg_snapshot_xmin(pg_current_snapshot()) ${afterFrontier}
        order by e.tx_id, e.id limit ${limit}`,
  );
}

/** The newest seal of each of the chains. */
export async function chainTails(
  db: Executor,
  tenantKeys: string[],
): Promise<Map<string, { seq: number; mac: string }>> {
  if (tenantKeys.length === 0) return new Map();
  const rows = await rowsOf<{ tenant_key: string; n: string; mac: string }>(
    db,
    sql`select distinct on (s.tenant_key) s.tenant_key, s.seq::text as n, s.mac from ${auditSeals} s
        where s.tenant_key in (${sql.join(
          tenantKeys.map((k) => sql`${k}`),
          sql`, `,
        )})
        order by s.tenant_key, s.seq desc`,
  );
  return new Map(rows.map((r) => [r.tenant_key, { seq: Number(r.n), mac: r.mac }]));
}

export type SealRow = typeof auditSeals.$inferInsert;

export async function insertSeals(tx: Executor, rows: SealRow[]): Promise<void> {
  if (rows.length > 0) await tx.insert(auditSeals).values(rows);
}

export async function insertHeads(tx: Executor, heads: SealHead[]): Promise<void> {
  if (heads.length > 0) await tx.insert(auditSealHeads).values(heads);
}

// ---- verification ---------------------------------------------------------------------------------------------

/** Every chain the database knows of (events, seals or heads), with its tenant's code. */
export async function sealChains(db: Executor): Promise<{ tenantKey: string; tenantCode: string | null }[]> {
  const rows = await rowsOf<{ tenant_key: string; code: string | null }>(
    db,
    sql`select k.tenant_key, t.code from (
          select distinct coalesce(tenant_id::text, '-') as tenant_key from audit_events
          union select distinct tenant_key from audit_seals
          union select distinct tenant_key from audit_seal_heads) k
        left join tenants t on t.id::text = k.tenant_key
        order by t.code nulls first, k.tenant_key`,
  );
  return rows.map((r) => ({ tenantKey: r.tenant_key, tenantCode: r.code }));
}

/** The tenant code of a chain known only from outside the database (a head file). */
export async function tenantCodeOf(db: Executor, tenantKey: string): Promise<string | null> {
  const [row] = await rowsOf<{ code: string }>(db, sql`select code from tenants where id::text = ${tenantKey}`);
  return row?.code ?? null;
}

/** A seal with its event (null when the event is gone). */
export type SealWithEvent = {
  eventId: number;
  txId: string;
  seq: number;
  prevMac: string | null;
  mac: string;
  event: SealableEvent | null;
};

/** One page of a chain's seals by seq, each with its event as the seal covers it. */
export async function sealPage(
  db: Executor,
  tenantKey: string,
  afterSeq: number,
  limit: number,
): Promise<SealWithEvent[]> {
  const rows = await rowsOf<
    SealableEvent & { s_event_id: string; s_tx_id: string; s_seq: string; s_prev_mac: string | null; s_mac: string }
  >(
    db,
    sql`select s.event_id::text as s_event_id, s.tx_id::text as s_tx_id, s.seq::text as s_seq, s.prev_mac as s_prev_mac,
          s.mac as s_mac, ${EVENT_TEXT}
        from audit_seals s left join audit_events e on e.id = s.event_id
        where s.tenant_key = ${tenantKey} and s.seq > ${afterSeq}
        order by s.seq limit ${limit}`,
  );
  return rows.map(({ s_event_id, s_tx_id, s_seq, s_prev_mac, s_mac, ...event }) => ({
    eventId: Number(s_event_id),
    txId: s_tx_id,
    seq: Number(s_seq),
    prevMac: s_prev_mac,
    mac: s_mac,
    event: event.id === null ? null : event,
  }));
}

/**
 * A chain's events without a seal: how many, and the first of them that lie at or below the sealed frontier — the
 * sealer passed them, so they were inserted afterwards or their seal was removed.
 */
export async function unsealedEvents(
  db: Executor,
  tenantKey: string,
  frontier: SealFrontier | null,
  sampleSize: number,
): Promise<{ count: number; belowFrontier: { id: number; at: string }[]; belowFrontierCount: number }> {
  const tenant = tenantKey === '-' ? sql`e.tenant_id is null` : sql`e.tenant_id::text = ${tenantKey}`;
  const below = frontier ? sql`(e.tx_id, e.id) <= (${frontier.txId}::xid8, ${frontier.eventId}::bigint)` : sql`false`;
  const [counts] = await rowsOf<{ n: string; below: string }>(
    db,
    sql`select count(*)::text as n, count(*) filter (where ${below})::text as below from audit_events e
        where ${tenant} and not exists (select 1 from audit_seals s where s.event_id = e.id)`,
  );
  const sample = await rowsOf<{ id: string; at: string }>(
    db,
    sql`select e.id::text as id, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
        from audit_events e
        where ${tenant} and ${below} and not exists (select 1 from audit_seals s where s.event_id = e.id)
        order by e.tx_id, e.id limit ${sampleSize}`,
  );
  return {
    count: Number(counts?.n ?? 0),
    belowFrontierCount: Number(counts?.below ?? 0),
    belowFrontier: sample.map((r) => ({ id: Number(r.id), at: r.at })),
  };
}

/** The newest signed head of a chain in the database. */
export async function latestHead(db: Executor, tenantKey: string): Promise<SealHead | null> {
  const [row] = await rowsOf<{ tenant_key: string; n: string; mac: string; signed: string; signature: string }>(
    db,
    sql`select h.tenant_key, h.seq::text as n, h.mac, h.signature,
          to_char(h.signed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as signed from ${auditSealHeads} h
        where h.tenant_key = ${tenantKey} order by h.seq desc limit 1`,
  );
  return row
    ? {
        tenantKey: row.tenant_key,
        seq: Number(row.n),
        mac: row.mac,
        signedAt: new Date(row.signed),
        signature: row.signature,
      }
    : null;
}
