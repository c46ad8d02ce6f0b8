import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../plugins/audit';
import { testSealer } from '../../../test/audit-seal';
import { buildTenant, buildUser } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
let sealer: Awaited<ReturnType<typeof testSealer>>;
let tenantId: string;
let writers: { id: string; token: string }[];

beforeAll(async () => {
  t = await createBareTestApp();
  sealer = await testSealer(t);
  tenantId = (await buildTenant(t.db)).tenant.id;
  writers = [];
  for (let i = 0; i < 32; i++) {
    const user = await buildUser(t.db, tenantId);
    writers.push({ id: user.id, token: await t.login(user.username, user.password) });
  }
});
/** Held transactions still open when a test fails: released before the app closes. */
const unreleased: (() => void)[] = [];
afterAll(async () => {
  for (const open of unreleased) open();
  await t?.close();
});

/** A promise and the function that settles it: the held transaction waits on it. */
function gate() {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  unreleased.push(open);
  return { opened, open };
}

async function sealOf(eventIds: number[]) {
  const { rows } = await t.database.pool.query<{ event_id: string; seq: string }>(
    'select event_id::text, seq::text from audit_seals where event_id = any($1::bigint[])',
    [eventIds],
  );
  return new Map(rows.map((r) => [Number(r.event_id), Number(r.seq)]));
}

describe('audit events sealed after commit', () => {
  it('should let 32 writers of one tenant save while another audited transaction is open, and seal it in its place only after it commits', async () => {
    await sealer.sealAll();

    // one writer's transaction: it inserted its audit event and stays open until `release.open()`
    const inserted = gate();
    const release = gate();
    let released = false;
    const held = t.db.transaction(async (tx) => {
      await audit(
        tx,
        { actorId: writers[0]?.id ?? null, tenantId, requestId: 'held', ip: null },
        {
          action: 'user.update',
          entityType: 'user',
          entityId: writers[0]?.id ?? null,
          newValue: { name: '长事务' },
        },
      );
      const [row] = (await tx.execute(sql`select currval('audit_events_id_seq')::text as id`)).rows as { id: string }[];
      inserted.open();
      await release.opened;
      return Number(row?.id);
    });
    await inserted.opened;

    // every other writer's audited save commits while the held transaction is still open
    const saves = await Promise.all(
      writers.map(async (w, i) => {
        const res = await t.api({ method: 'PUT', url: '/sys-user', token: w.token, payload: { name: `并发-${i}` } });
        return { status: res.statusCode, heldStillOpen: !released };
      }),
    );
    expect(saves.map((s) => s.status)).toEqual(writers.map(() => 200));
    expect(saves.every((s) => s.heldStillOpen)).toBe(true);

    const { rows } = await t.database.pool.query<{ id: string }>(
      "select id::text from audit_events where tenant_id = $1 and request_id <> 'held' and action = 'user.update'",
      [tenantId],
    );
    const committed = rows.map((r) => Number(r.id));
    expect(committed).toHaveLength(32);

    // the held transaction holds the sealer's horizon: none of the later transactions' events is sealed yet
    await sealer.seal();
    expect((await sealOf(committed)).size).toBe(0);

    released = true;
    release.open();
    const heldId = await held;
    expect((await sealOf([heldId])).size).toBe(0);

    await sealer.sealAll();
    const seals = await sealOf([heldId, ...committed]);
    expect(seals.size).toBe(33);
    // sealed in (tx_id, id) order: the event that committed last, but began first, comes before every other
    const heldSeq = seals.get(heldId) ?? Infinity;
    expect(committed.every((id) => (seals.get(id) ?? -1) > heldSeq)).toBe(true);

    const chain = (await sealer.verify()).find((r) => r.tenantId === tenantId);
    expect(chain).toMatchObject({ ok: true, unsealed: 0, problems: [] });
    // 32 sign-ins, 32 saves and the held one
    expect(chain?.sealed).toBe(65);
  });

  it('should never seal an event of a transaction still running, and seal it once it commits', async () => {
    await sealer.sealAll();
    const release = gate();
    const inserted = gate();
    const held = t.db.transaction(async (tx) => {
      await audit(
        tx,
        { actorId: null, tenantId, requestId: 'held-2', ip: null },
        {
          action: 'user.update',
          entityType: 'user',
        },
      );
      const [row] = (await tx.execute(sql`select currval('audit_events_id_seq')::text as id`)).rows as { id: string }[];
      inserted.open();
      await release.opened;
      return Number(row?.id);
    });
    await inserted.opened;
    // an event of a transaction that began later and already committed: sealed only after the held one
    const res = await t.api({ method: 'PUT', url: '/sys-user', token: writers[1]?.token, payload: { name: '之后' } });
    expect(res.statusCode).toBe(200);
    expect(await sealer.seal()).toBe(0);
    release.open();
    const heldId = await held;
    await sealer.sealAll();
    expect((await sealOf([heldId])).size).toBe(1);
    expect((await sealer.verify()).every((r) => r.ok)).toBe(true);
  });

  it('should let one sealer work at a time: a second one at the same moment seals nothing twice', async () => {
    for (const w of writers.slice(0, 8))
      await t.api({ method: 'PUT', url: '/sys-user', token: w.token, payload: { name: '再次' } });
    const counts = await Promise.all([sealer.seal({ batchSize: 3 }), sealer.seal({ batchSize: 3 })]);
    await sealer.sealAll();
    const { rows } = await t.database.pool.query<{ n: string; d: string }>(
      'select count(*)::text as n, count(distinct (tenant_key, seq))::text as d from audit_seals',
    );
    expect(rows[0]?.n).toBe(rows[0]?.d);
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(16);
    expect((await sealer.verify()).every((r) => r.ok)).toBe(true);
  });

  it('should find no problem when it verifies while the sealer is sealing in small batches', async () => {
    for (const [i, w] of writers.entries())
      await t.api({ method: 'PUT', url: '/sys-user', token: w.token, payload: { name: `校验中-${i}` } });
    const [, results] = await Promise.all([sealer.seal({ batchSize: 2 }), sealer.verify()]);
    expect(results.flatMap((r) => r.problems)).toEqual([]);
    await sealer.sealAll();
    expect((await sealer.verify()).every((r) => r.ok && r.unsealed === 0)).toBe(true);
  });
});
