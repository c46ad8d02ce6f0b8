import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationVO } from '@registry/shared/contracts/notification';
import { notifications } from '../../db/schema';
import { hospital, member, project } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T };

let t: TestApp;
let ownerToken: string;
let entryToken: string;
let ownerIds: string[];
let entryId: string;

beforeAll(async () => {
  t = await createBareTestApp();
  const p = await project(t, (await hospital(t)).admin);
  const owner = p.owner;
  const entry = await member(t, p, 'data_entry');
  const row = (userId: string, tenantId: string, n: number, minutes: number) => ({
    tenantId,
    userId,
    projectId: p.id,
    kind: 'followup_due',
    entityId: randomUUID(),
    title: `随访提醒：C01-000${n} 出院后3个月`,
    body: `心衰随访 · 出院后3个月：应随访日期 2026-03-1${n}。`,
    link: `/followup/edit?id=${randomUUID()}`,
    createdAt: new Date(Date.UTC(2026, 2, 1, 8, minutes)),
  });
  const made = await t.db
    .insert(notifications)
    .values([
      row(owner.id, owner.tenantId, 1, 0),
      row(owner.id, owner.tenantId, 2, 5),
      row(owner.id, owner.tenantId, 3, 10),
    ])
    .returning({ id: notifications.id });
  ownerIds = made.map((m) => m.id);
  const [e] = await t.db
    .insert(notifications)
    .values(row(entry.id, entry.tenantId, 4, 0))
    .returning({ id: notifications.id });
  entryId = e!.id;
  ownerToken = owner.token;
  entryToken = entry.token;
});
afterAll(async () => {
  await t?.close();
});

const count = async (token: string) =>
  (await t.api({ method: 'GET', url: '/notification/unread-count', token })).json<Body<{ count: number }>>().data.count;

describe('notification calls', () => {
  it('should answer 401 without a session', async () => {
    expect((await t.api({ method: 'GET', url: '/notification/unread-count' })).statusCode).toBe(401);
  });

  it('should count and list only the caller’s own notifications, newest first', async () => {
    expect(await count(ownerToken)).toBe(3);
    expect(await count(entryToken)).toBe(1);
    const res = await t.api({
      method: 'POST',
      url: '/notification/page',
      payload: { current: 1, size: 2 },
      token: ownerToken,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json<Body<{ records: NotificationVO[]; total: number }>>().data;
    expect(data.total).toBe(3);
    expect(data.records.map((r) => r.id)).toEqual([ownerIds[2], ownerIds[1]]);
    expect(data.records[0]).toMatchObject({
      kind: 'followup_due',
      title: '随访提醒：C01-0003 出院后3个月',
      projectName: expect.any(String),
      readAt: null,
      createdAt: '2026-03-01T08:10:00.000Z',
    });
  });

  it('should answer 404 for another user’s or a missing id and mark nothing', async () => {
    for (const ids of [[entryId], [ownerIds[0]!, entryId], [randomUUID()]]) {
      const res = await t.api({ method: 'POST', url: '/notification/read', payload: { ids }, token: ownerToken });
      expect(res.statusCode).toBe(404);
      expect(res.json<Body>().message).toBe('通知不存在');
    }
    expect(await count(ownerToken)).toBe(3);
    expect(await count(entryToken)).toBe(1);
  });

  it('should refuse a read with neither ids nor all', async () => {
    const res = await t.api({ method: 'POST', url: '/notification/read', payload: {}, token: ownerToken });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('请选择要标记为已读的通知');
  });

  it('should mark the given ones read, then all, answering the unread count, audited', async () => {
    const one = await t.api({
      method: 'POST',
      url: '/notification/read',
      payload: { ids: [ownerIds[0]] },
      token: ownerToken,
    });
    expect(one.json<Body<{ count: number }>>().data).toEqual({ count: 2 });
    const unread = await t.api({
      method: 'POST',
      url: '/notification/page',
      payload: { current: 1, size: 20, unreadOnly: true },
      token: ownerToken,
    });
    expect(unread.json<Body<{ total: number }>>().data.total).toBe(2);
    const all = await t.api({ method: 'POST', url: '/notification/read', payload: { all: true }, token: ownerToken });
    expect(all.json<Body<{ count: number }>>().data).toEqual({ count: 0 });
    expect(await count(entryToken)).toBe(1);
    const { rows } = await t.database.pool.query<{ n: number }>(
      `select count(*)::int as n from audit_events where action = 'notification.read'`,
    );
    expect(rows[0]?.n).toBe(2);
  });
});
