import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTenant, buildUser } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { createFakeClock } from '../../lib/clock';
import { createOutboxSmsProvider, type SmsGateway } from './sms-provider';

/** A gateway that records what it is handed, and refuses while `down`. */
function recordingGateway() {
  const handed: { phone: string; text: string }[] = [];
  const gateway: SmsGateway & { down: boolean; handed: typeof handed } = {
    down: false,
    handed,
    async deliver(phone, text) {
      if (gateway.down) throw new Error('gateway unavailable');
      handed.push({ phone, text });
    },
  };
  return gateway;
}

const quiet = { info: () => undefined, warn: () => undefined };

let t: TestApp;
let gateway: ReturnType<typeof recordingGateway>;
beforeAll(async () => {
  gateway = recordingGateway();
  // the app's own outbox provider with a gateway (the test app's recording provider taken away)
  t = await createBareTestApp({}, { smsProvider: undefined, smsGateway: gateway });
});
afterAll(async () => {
  await t?.close();
});

const outbox = async (phone: string) =>
  (
    await t.database.pool.query<{ message: string; sent_at: Date | null }>(
      'select message, sent_at from sms_outbox where phone = $1 order by id',
      [phone],
    )
  ).rows;

describe('the outbox SMS provider with a gateway', () => {
  it('should hand a sign-in code to the gateway and mark its outbox row sent', async () => {
    const tenantId = (await buildTenant(t.db)).tenant.id;
    await buildUser(t.db, tenantId, { phone: '13700000001' });
    const res = await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13700000001' } });
    expect(res.statusCode).toBe(200);
    expect(gateway.handed.map((m) => m.phone)).toEqual(['13700000001']);
    const rows = await outbox('13700000001');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.message).toBe(gateway.handed[0]?.text);
    expect(rows[0]?.sent_at).toBeInstanceOf(Date);
  });

  it('should answer 503 in Chinese when the gateway refuses, and leave the row unsent', async () => {
    const tenantId = (await buildTenant(t.db)).tenant.id;
    await buildUser(t.db, tenantId, { phone: '13700000002' });
    gateway.down = true;
    try {
      const res = await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13700000002' } });
      expect(res.statusCode).toBe(503);
      expect(res.json<{ message: string }>().message).toBe('短信发送失败，请稍后重试');
    } finally {
      gateway.down = false;
    }
    expect((await outbox('13700000002')).map((r) => r.sent_at)).toEqual([null]);
  });

  it('should send a message written in a transaction only after it is committed, by the pending delivery', async () => {
    const clock = createFakeClock(new Date('2020-01-01T08:00:00Z')); // before every other row of the outbox;
    const gw = recordingGateway();
    const provider = createOutboxSmsProvider({ db: t.db, clock, logger: quiet, gateway: gw });
    await t.db
      .transaction(async (tx) => {
        await provider.sendInTransaction(tx, '13700000003', '回滚的提醒');
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await t.db.transaction((tx) => provider.sendInTransaction(tx, '13700000003', '随访提醒'));
    // nothing goes out at once; a minute later the pending delivery hands it over and marks it
    expect(await provider.deliverPending()).toEqual({ sent: 0, failed: 0 });
    clock.advanceMinutes(2);
    expect(await provider.deliverPending()).toEqual({ sent: 1, failed: 0 });
    expect(gw.handed).toEqual([{ phone: '13700000003', text: '随访提醒' }]);
    expect((await outbox('13700000003')).map((r) => [r.message, r.sent_at !== null])).toEqual([['随访提醒', true]]);
    expect(await provider.deliverPending()).toEqual({ sent: 0, failed: 0 });
  });

  it('should keep sent_at null and send nothing without a gateway', async () => {
    const provider = createOutboxSmsProvider({ db: t.db, clock: t.clock, logger: quiet });
    await provider.send('13700000004', '无网关');
    expect(await provider.deliverPending()).toEqual({ sent: 0, failed: 0 });
    expect((await outbox('13700000004')).map((r) => r.sent_at)).toEqual([null]);
  });
});
