import type { Db } from '../../db/client';
import type { AuditSealKey } from '../../lib/audit-seal-key';
import type { Clock } from '../../lib/clock';
import type { HeadStore } from './audit-head-store';
import { headSignature, sealMac, tenantKeyOf, type SealHead } from './audit-seal-mac';
import {
  chainTails,
  eventsToSeal,
  insertHeads,
  insertSeals,
  sealedFrontier,
  tryLockSealer,
  type SealRow,
} from './audit-seal.repository';

export type SealOptions = {
  /** Events sealed in one transaction (bounded work per transaction). */
  batchSize?: number;
  /** Batches of one call at most; the next call goes on where this one stopped. */
  maxBatches?: number;
};

/**
 * Seals the audit events that can no longer change, after their commit (ADR 0013). Batch by batch, in a transaction
 * holding the sealer's advisory lock (another sealer at work: nothing is done), it takes the events after the last
 * sealed one in (tx_id, id) order whose transaction lies below the snapshot's xmin — all ended, so none can commit
 * later below it — and appends to each tenant's chain one seal per event (seq, prev_mac, mac = HMAC with the key)
 * and one signed head per touched chain. After the commit the heads go to the head store outside the database.
 * Answers how many events it sealed.
 */
export async function sealPending(
  db: Db,
  key: AuditSealKey,
  clock: Clock,
  heads: HeadStore,
  options: SealOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 200;
  let sealed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const result = await db.transaction(async (tx) => {
      if (!(await tryLockSealer(tx))) return null;
      const events = await eventsToSeal(tx, await sealedFrontier(tx), batchSize);
      if (events.length === 0) return { count: 0, heads: [] as SealHead[] };
      const tails = await chainTails(tx, [...new Set(events.map((e) => tenantKeyOf(e.tenantId)))]);
      const now = clock.now();
      const seals: SealRow[] = [];
      for (const event of events) {
        const tenantKey = tenantKeyOf(event.tenantId);
        const tail = tails.get(tenantKey);
        const seal = { tenantKey, seq: (tail?.seq ?? 0) + 1, prevMac: tail?.mac ?? null };
        const mac = sealMac(key, seal, event);
        seals.push({ eventId: Number(event.id), txId: event.txId, ...seal, mac, sealedAt: now });
        tails.set(tenantKey, { seq: seal.seq, mac });
      }
      const touched = [...new Set(seals.map((s) => s.tenantKey))].map((tenantKey): SealHead => {
        const tail = tails.get(tenantKey) as { seq: number; mac: string };
        const head = { tenantKey, seq: tail.seq, mac: tail.mac, signedAt: now };
        return { ...head, signature: headSignature(key, head) };
      });
      await insertSeals(tx, seals);
      await insertHeads(tx, touched);
      return { count: events.length, heads: touched };
    });
    if (result === null) break;
    // after the commit: the store never holds a head the database might not
    for (const head of result.heads) await heads.write(head);
    sealed += result.count;
    if (result.count < batchSize) break;
  }
  return sealed;
}
