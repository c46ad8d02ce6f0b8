import { randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '@registry/shared/access';
import { API_BASE, APP_CODE } from '@registry/shared/constants';
import { auditEvents, idempotencyKeys, patients } from '../db/schema';
import { ERROR_MESSAGES } from '../lib/errors';
import { hospital, member, project, type Account } from '../../test/factories';
import { createBareTestApp, type TestApp } from '../../test/test-app';
import { createIdempotencyCleanupJob } from './idempotency';

type Body<T = unknown> = { status: number; message: string; data: T };
type Patient = { id: string; name: string; idNumber: string | null };

let t: TestApp;
let owner: string;
let ownerAccount: Account;
let entry: string;
let c01: string;

/** A fresh, unique patient name per test: rows and audit events are counted by it. */
const uniqueName = () => `幂等${randomUUID().slice(0, 8)}`;
const create = (token: string, payload: Record<string, unknown>, key?: string) =>
  t.api({
    method: 'POST',
    url: '/patient-info',
    token,
    payload,
    headers: key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key },
  });
const patientsNamed = async (name: string) => t.db.select().from(patients).where(eq(patients.name, name));
const createEvents = async (ids: string[]) =>
  (await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'patient.create'))).filter((e) =>
    ids.includes(e.entityId ?? ''),
  );
const keyRow = async (key: string) =>
  (await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0];

beforeAll(async () => {
  // a short wait for a repeat meeting a request still running, so the 409 test is quick
  t = await createBareTestApp({}, { idempotencyWaitMs: 300 });
  // A project of the hospital's administrator with a data-entry member at its default center C01.
  const hf = await project(t, (await hospital(t)).admin);
  ownerAccount = hf.owner;
  owner = hf.owner.token;
  entry = (await member(t, hf, 'data_entry')).token;
  c01 = hf.defaultCenterId;
});
afterAll(async () => {
  await t?.close();
});

describe('Idempotency-Key on signed-in writes', () => {
  it('should run a write once per key: the repeat gets the same answer, no second row, no second audit event', async () => {
    const name = uniqueName();
    const key = randomUUID();
    const first = await create(owner, { name, centerId: c01, phone: '13912345678' }, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBeUndefined();
    const second = await create(owner, { name, centerId: c01, phone: '13912345678' }, key);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBe('true');
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);

    const rows = await patientsNamed(name);
    expect(rows).toHaveLength(1);
    expect(await createEvents(rows.map((r) => r.id))).toHaveLength(1);

    // the stored answer is the user's, encrypted (it may carry identity numbers and phones), with the route's pattern
    const stored = await keyRow(key);
    expect(stored).toMatchObject({ method: 'POST', route: `${API_BASE}/patient-info`, statusCode: 200 });
    expect(stored?.response).not.toContain(name);
    expect(stored?.response).not.toContain('13912345678');
  });

  it('should answer 422 to the same key with another body or another URL, and write nothing', async () => {
    const name = uniqueName();
    const key = randomUUID();
    expect((await create(owner, { name, centerId: c01 }, key)).statusCode).toBe(200);

    const otherBody = await create(owner, { name: `${name}乙`, centerId: c01 }, key);
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json<Body>()).toMatchObject({ status: 422, message: ERROR_MESSAGES.idempotencyKeyReused });
    const otherUrl = await t.api({
      method: 'POST',
      url: '/patient-info/page',
      token: owner,
      payload: { current: 1, size: 10 },
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    });
    expect(otherUrl.statusCode).toBe(422);
    expect(await patientsNamed(`${name}乙`)).toHaveLength(0);
    expect(await patientsNamed(name)).toHaveLength(1);
  });

  it("should keep keys per user: another user's request with the same key runs on its own", async () => {
    const key = randomUUID();
    const a = uniqueName();
    const b = uniqueName();
    const mine = await create(owner, { name: a, centerId: c01 }, key);
    const theirs = await create(entry, { name: b, centerId: c01 }, key);
    expect(mine.statusCode).toBe(200);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBeUndefined();
    expect(theirs.json<Body<Patient>>().data.name).toBe(b);
    expect(await patientsNamed(a)).toHaveLength(1);
    expect(await patientsNamed(b)).toHaveLength(1);
    // and the same body under the same key from the other user is not a replay of mine either
    const same = await create(entry, { name: a, centerId: c01 }, randomUUID());
    expect(same.json<Body<Patient>>().data.id).not.toBe(mine.json<Body<Patient>>().data.id);
  });

  it('should change nothing without the header: each request runs, no key is stored', async () => {
    const name = uniqueName();
    const before = (await t.db.select().from(idempotencyKeys)).length;
    expect((await create(owner, { name, centerId: c01 })).statusCode).toBe(200);
    expect((await create(owner, { name, centerId: c01 })).statusCode).toBe(200);
    expect(await patientsNamed(name)).toHaveLength(2);
    expect((await t.db.select().from(idempotencyKeys)).length).toBe(before);
  });

  it('should ignore the header on public routes and reads, and refuse a malformed key', async () => {
    const key = randomUUID();
    const login = await t.api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'password', username: ownerAccount.username, password: ownerAccount.password },
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    });
    expect(login.statusCode).toBe(200);
    const read = await t.api({
      method: 'GET',
      url: '/sys-user/user-info',
      token: owner,
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    });
    expect(read.statusCode).toBe(200);
    expect(await keyRow(key)).toBeUndefined();

    const bad = await create(owner, { name: uniqueName(), centerId: c01 }, 'x'.repeat(256));
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Body>().message).toBe(ERROR_MESSAGES.idempotencyKeyInvalid);
  });

  it('should store a refusal (4xx) too: the repeat gets the same refusal without running again', async () => {
    const key = randomUUID();
    const first = await create(owner, { centerId: c01 }, key); // no name: 400
    expect(first.statusCode).toBe(400);
    const again = await create(owner, { centerId: c01 }, key);
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe(first.body);
    expect(again.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBe('true');
  });

  it('should release the key when the answer is a file (not stored): a repeat runs again', async () => {
    const key = randomUUID();
    const first = await t.api({
      method: 'POST',
      url: '/followup/task/export',
      token: owner,
      payload: {},
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    });
    expect(first.statusCode, first.body.slice(0, 200)).toBe(200);
    expect(first.headers['content-disposition']).toMatch(/attachment/);
    expect(await keyRow(key)).toBeUndefined();
  });

  it('should let a key expire after 24 hours: reused for another request, then deleted by the cleanup job', async () => {
    const key = randomUUID();
    const name = uniqueName();
    expect((await create(owner, { name, centerId: c01 }, key)).statusCode).toBe(200);
    const stored = await keyRow(key);
    const dayLater = (stored?.createdAt.getTime() ?? 0) + 24 * 3_600_000;
    expect(stored?.expiresAt.getTime()).toBeGreaterThanOrEqual(dayLater);
    expect(stored?.expiresAt.getTime()).toBeLessThan(dayLater + 60_000);
    // a day on (the sessions would have expired with the fake clock: the key's expiry is moved instead)
    const expire = (k: string) =>
      t.database.pool.query(`update idempotency_keys set expires_at = $2 where key = $1`, [
        k,
        new Date(t.clock.now().getTime() - 1000),
      ]);
    await expire(key);
    const reused = await create(owner, { name: `${name}丙`, centerId: c01 }, key);
    expect(reused.statusCode, reused.body).toBe(200);
    expect(reused.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBeUndefined();
    expect(await patientsNamed(`${name}丙`)).toHaveLength(1);

    const fresh = randomUUID();
    expect((await create(owner, { name: uniqueName(), centerId: c01 }, fresh)).statusCode).toBe(200);
    await expire(key);
    await createIdempotencyCleanupJob({ db: t.db, clock: t.clock }).run();
    expect(await keyRow(key)).toBeUndefined();
    expect(await keyRow(fresh)).toBeDefined();
  });

  it('should answer 409 to a repeat while the first still runs, and replay once it finished (a client timeout)', async () => {
    const name = uniqueName();
    const key = randomUUID();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // the first request blocks on its insert while another connection holds the table
    const blocker = await t.database.pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table patients in share mode');
      const aborted = new AbortController();
      const first = fetch(`${base}${API_BASE}/patient-info`, {
        method: 'POST',
        signal: aborted.signal,
        headers: {
          'content-type': 'application/json',
          'x-app-code': APP_CODE,
          authorization: `Bearer ${owner}`,
          [IDEMPOTENCY_KEY_HEADER]: key,
        },
        body: JSON.stringify({ name, centerId: c01 }),
      }).catch((err: unknown) => err);
      await expect.poll(async () => (await keyRow(key))?.method).toBe('POST');

      const meanwhile = await create(owner, { name, centerId: c01 }, key);
      expect(meanwhile.statusCode).toBe(409);
      expect(meanwhile.json<Body>().message).toBe(ERROR_MESSAGES.idempotencyInProgress);

      aborted.abort(); // the client gives up (its timeout), the server carries on
      expect(await first).toBeInstanceOf(Error);
      await blocker.query('commit');
    } finally {
      blocker.release();
    }
    await expect.poll(async () => (await keyRow(key))?.statusCode, { timeout: 5000 }).toBe(200);
    const retry = await create(owner, { name, centerId: c01 }, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers[IDEMPOTENT_REPLAY_HEADER.toLowerCase()]).toBe('true');
    const rows = await patientsNamed(name);
    expect(rows).toHaveLength(1);
    expect(retry.json<Body<Patient>>().data.id).toBe(rows[0]?.id);
    expect(await createEvents(rows.map((r) => r.id))).toHaveLength(1);
    expect(
      await t.db
        .select()
        .from(patients)
        .where(like(patients.name, `${name}%`)),
    ).toHaveLength(1);
  });
});
