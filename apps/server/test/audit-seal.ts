import { setTimeout as sleep } from 'node:timers/promises';
import { resolveAuditSealKey } from '../src/lib/audit-seal-key';
import { createStorage, type ObjectStorage } from '../src/lib/storage';
import { createStorageHeadStore, type HeadStore } from '../src/modules/audit/audit-head-store';
import { sealPending } from '../src/modules/audit/audit-seal.service';
import { verifyAuditSeals } from '../src/modules/audit/audit-verify';
import type { TestApp } from './test-app';

/**
 * The audit sealer of a test app as the app wires it: its key (AUDIT_SEAL_KEY, else the key file of its DATA_DIR) and
 * the head store on the object storage its configuration names — or on `storage`, which the caller then closes (a
 * local directory, the default of a test app, holds nothing to release).
 */
export async function testSealer(
  t: Pick<TestApp, 'config' | 'db' | 'clock' | 'database'>,
  storage?: ObjectStorage,
  /** Another head store (e.g. the DATA_DIR one of earlier versions) instead of the storage's. */
  headStore?: HeadStore,
) {
  const key = await resolveAuditSealKey(t.config);
  const heads = headStore ?? createStorageHeadStore(storage ?? createStorage(t.config.storage));
  const seal = (options?: { batchSize?: number }) => sealPending(t.db, key, t.clock, heads, options);

  async function unsealedCount(): Promise<number> {
    const { rows } = await t.database.pool.query<{ n: string }>(
      'select count(*)::text as n from audit_events e where not exists (select 1 from audit_seals s where s.event_id = e.id)',
    );
    return Number(rows[0]?.n ?? 0);
  }

  return {
    key,
    heads,
    seal,
    unsealedCount,
    verify: () => verifyAuditSeals(t.db, key, heads),
    /**
     * Seals until no event is left unsealed. The sealer waits for every transaction of the cluster below its
     * horizon, also those of other test databases in the same cluster, so it tries again until they have ended.
     */
    async sealAll(): Promise<void> {
      for (let attempt = 0; attempt < 1000; attempt++) {
        await seal();
        if ((await unsealedCount()) === 0) return;
        await sleep(20);
      }
      throw new Error(`audit events left unsealed: ${await unsealedCount()}`);
    },
  };
}
