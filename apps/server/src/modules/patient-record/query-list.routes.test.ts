import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataQueryVO, FormRecordVO, QueryListItem } from '@registry/shared/contracts/form-record';
import type { NotificationVO } from '@registry/shared/contracts/notification';
import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';
import { auditEvents, dataQueries, notifications, patients } from '../../db/schema';
import { center, hospital, member, patient, project, publishCrf } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { createInAppNotifier, type Notifier } from '../notification/notifier';

/**
 * the people of a query are told (the data's author when a monitor raises it, the raiser when it is answered,
 * the answerer when it is closed), in the query's transaction; and the open-queries list `POST form-record/query/page`
 * with its filters, its scope (tenant, project, center) and PHI masking.
 */

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Page<T> = { records: T[]; total: number; current: number; size: number };

/** The in-app notifier, made to fail after writing when `failNotify` is set (a transaction must roll back whole). */
let failNotify = false;
const inApp = createInAppNotifier();
const notifier: Notifier = {
  async notify(tx, messages) {
    await inApp.notify(tx, messages);
    if (failNotify) throw new Error('notifier down');
  },
};

/** 生命体征, the form the queries are raised on, and 超声心动图, a form nobody has a query on. */
const DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: 'vital_signs',
          title: '生命体征',
          fields: [
            { key: 'vs_date', label: '测量日期', type: 'date', maxDate: 'today' },
            { key: 'height', label: '身高', type: 'decimal', unit: 'cm', precision: 1, min: 50, max: 250 },
            { key: 'weight', label: '体重', type: 'decimal', unit: 'kg', precision: 1, min: 20, max: 300 },
            { key: 'sbp', label: '收缩压', type: 'integer', unit: 'mmHg', min: 40, max: 300 },
            { key: 'dbp', label: '舒张压', type: 'integer', unit: 'mmHg', min: 20, max: 200 },
            { key: 'heart_rate', label: '心率', type: 'integer', unit: '次/分', min: 20, max: 250 },
          ],
        },
        {
          key: 'echocardiography',
          title: '超声心动图',
          fields: [{ key: 'lvef', label: 'LVEF', type: 'integer', unit: '%' }],
        },
      ],
    },
  ],
};

let t: TestApp;
let owner: string;
let entry: string;
let entry2: string;
let monitor: string;
/** patient.list only, no patient.pii (a custom role). */
let reader: string;
const uid: Record<string, string> = {};
let hfId: string;
/** Another project of the hospital, the monitor a member of it too. */
let otherId: string;
let c1: string;
let c2: string;
let p1: string;
let p6: string;
let r1: FormRecordVO;
let r6: FormRecordVO;

const call = (token: string, url: string, payload: Record<string, unknown>) =>
  t.api({ method: 'POST', url, token, payload });
const page = async (token: string, filter: Record<string, unknown> = {}) => {
  const res = await call(token, '/form-record/query/page', filter);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<Page<QueryListItem>>>().data;
};
const raise = async (token: string, recordId: string | null, path: string, message: string) => {
  const res = await call(token, '/form-record/query', { recordId, path, message });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<DataQueryVO>>().data;
};
const notificationsOf = (userId: string) => t.db.select().from(notifications).where(eq(notifications.userId, userId));

beforeAll(async () => {
  t = await createBareTestApp({}, { notifier });
  // a project of a hospital's administrator (owner) with centers C01 and C02, the form above published, data-entry
  // members at C01 (entry) and C02 (entry2), a monitor of every center who is also in another project of the
  // hospital, a member who may only list patients (reader, a custom role), a patient at each center
  const h = await hospital(t);
  const hf = await project(t, h.admin);
  hfId = hf.id;
  owner = h.admin.token;
  await publishCrf(t, owner, DEFINITION);
  c1 = hf.defaultCenterId;
  c2 = (await center(t, hf, { code: 'C02' })).id;
  const role = await call(owner, '/project-role', { code: 'reader', name: '只读患者', permissions: ['patient.list'] });
  expect(role.statusCode, role.body).toBe(200);
  const entryAccount = await member(t, hf, 'data_entry', { centerId: c1 });
  const entry2Account = await member(t, hf, 'data_entry', { centerId: c2 });
  const monitorAccount = await member(t, hf, 'monitor', { centerId: null });
  reader = (await member(t, hf, 'reader', { centerId: null })).token;
  entry = entryAccount.token;
  entry2 = entry2Account.token;
  monitor = monitorAccount.token;
  uid.entry = entryAccount.id;
  uid.entry2 = entry2Account.id;
  uid.monitor = monitorAccount.id;
  const other = await project(t, h.admin);
  otherId = other.id;
  await member(t, other, 'monitor', { account: monitorAccount, centerId: null });
  for (const token of [owner, monitor])
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${hfId}`, token });
  p1 = (await patient(t, entry, { name: '王建国' })).id;
  p6 = (await patient(t, entry2, { name: '刘淑珍' })).id;
  const vitals = { vs_date: '2026-02-01', height: 170, weight: 72.5, sbp: 132, dbp: 84, heart_rate: 76 };
  const save = async (token: string, patientId: string) => {
    const res = await call(token, '/form-record/save', {
      patientId,
      formKey: 'vital_signs',
      rowVersion: 0,
      data: vitals,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Body<FormRecordVO>>().data;
  };
  r1 = await save(entry, p1);
  r6 = await save(entry2, p6);
});
afterAll(async () => {
  await t?.close();
});

describe('notifications of a query', () => {
  let queryId = '';

  it('should tell the user who entered the value, in words and a link without the patient name', async () => {
    const before = await notificationsOf(uid.monitor ?? '');
    const q = await raise(monitor, r1.id, 'weight', '体重与病历记录不符，请核对');
    queryId = q.id;
    const [row] = await t.db.select().from(dataQueries).where(eq(dataQueries.id, q.id));
    expect(row?.assignedTo).toBe(uid.entry);
    const sent = await notificationsOf(uid.entry ?? '');
    expect(sent).toHaveLength(1);
    const n = sent[0];
    expect(n).toMatchObject({ kind: 'query_raised', entityId: q.id, projectId: hfId });
    expect(n?.title).toContain('生命体征');
    expect(n?.title).toContain('体重');
    expect(n?.body).toContain('体重与病历记录不符，请核对');
    expect(n?.link).toBe(`/patient/edit?id=${p1}&form=vital_signs&instance=1&field=weight`);
    const [patient] = await t.db.select().from(patients).where(eq(patients.id, p1));
    for (const text of [n?.title, n?.body, n?.link]) expect(text).not.toContain(patient?.name);
    // the one who raised it is not told of their own act
    expect(await notificationsOf(uid.monitor ?? '')).toHaveLength(before.length);
    // the bell of the data's author lists it
    const bell = await call(entry, '/notification/page', {});
    expect(bell.json<Body<Page<NotificationVO>>>().data.records[0]).toMatchObject({
      kind: 'query_raised',
      link: n?.link,
    });
  });

  it('should tell the raiser when it is answered and the answerer when it is closed', async () => {
    const answered = await call(entry, '/form-record/query/answer', { id: queryId, answer: '已按病历更正为72.5kg' });
    expect(answered.statusCode, answered.body).toBe(200);
    const toMonitor = await notificationsOf(uid.monitor ?? '');
    expect(toMonitor).toEqual([
      expect.objectContaining({
        kind: 'query_answered',
        entityId: queryId,
        body: expect.stringContaining('已按病历更正'),
      }),
    ]);
    const closed = await call(monitor, '/form-record/query/close', { id: queryId, note: '已核实' });
    expect(closed.statusCode, closed.body).toBe(200);
    const toEntry = await notificationsOf(uid.entry ?? '');
    expect(toEntry.map((n) => n.kind).sort()).toEqual(['query_closed', 'query_raised']);
    expect(toEntry.find((n) => n.kind === 'query_closed')?.body).toContain('已核实');
  });

  it('should not tell anyone of a query raised on their own data', async () => {
    const before = await t.db.select().from(notifications);
    const q = await raise(owner, r6.id, 'sbp', '自查');
    const [row] = await t.db.select().from(dataQueries).where(eq(dataQueries.id, q.id));
    expect(row?.assignedTo).toBe(uid.entry2);
    // entry2 is told (the owner raised it on entry2's data), nobody else
    const after = await t.db.select().from(notifications);
    expect(after.length - before.length).toBe(1);
    expect(after.find((n) => n.entityId === q.id)?.userId).toBe(uid.entry2);
    // the owner answers their own query: nobody is told
    await call(owner, '/form-record/query/answer', { id: q.id, answer: '自答' });
    expect((await t.db.select().from(notifications)).length).toBe(after.length);
  });

  it('should write neither the query, its audit event nor a notification when notifying fails', async () => {
    const queries = (await t.db.select().from(dataQueries)).length;
    const sent = (await t.db.select().from(notifications)).length;
    const audited = (await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'data_query.create'))).length;
    failNotify = true;
    try {
      const res = await call(monitor, '/form-record/query', { recordId: r1.id, path: 'sbp', message: '请核对血压' });
      expect(res.statusCode).toBe(500);
    } finally {
      failNotify = false;
    }
    expect((await t.db.select().from(dataQueries)).length).toBe(queries);
    expect((await t.db.select().from(notifications)).length).toBe(sent);
    expect((await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'data_query.create'))).length).toBe(
      audited,
    );
  });
});

describe('POST form-record/query/page', () => {
  let q1: DataQueryVO;
  let q6: DataQueryVO;
  beforeAll(async () => {
    q1 = await raise(monitor, r1.id, 'heart_rate', '心率请核对');
    q6 = await raise(monitor, r6.id, 'dbp', '舒张压请核对');
    // raised three days ago (moving the clock would end the sessions)
    await t.db
      .update(dataQueries)
      .set({ raisedAt: new Date(t.clock.now().getTime() - (3 * 24 + 1) * 60 * 60 * 1000) })
      .where(eq(dataQueries.id, q1.id));
  });

  it('should list the open queries of every center to a monitor, newest first, with form and field labels', async () => {
    const all = await page(monitor);
    const ids = all.records.map((r) => r.id);
    expect(ids.indexOf(q6.id)).toBeLessThan(ids.indexOf(q1.id));
    expect(all.records.every((r) => r.status !== 'closed')).toBe(true);
    const row = all.records.find((r) => r.id === q1.id);
    expect(row).toMatchObject({
      patientId: p1,
      recordId: r1.id,
      formKey: 'vital_signs',
      formTitle: '生命体征',
      instance: 1,
      path: 'heart_rate',
      centerId: c1,
      status: 'open',
      origin: 'manual',
      message: '心率请核对',
      assignedToName: expect.any(String),
      daysOpen: 3,
    });
    expect(row?.fieldLabel).not.toBe('heart_rate');
    expect(all.total).toBe(all.records.length);
  });

  it('should show a center-scoped member only the queries of their center', async () => {
    const mine = await page(entry);
    expect(mine.records.map((r) => r.id)).toContain(q1.id);
    expect(mine.records.map((r) => r.id)).not.toContain(q6.id);
    expect(mine.records.every((r) => r.centerId === c1)).toBe(true);
    // asking for the other center changes nothing: it answers like a center that does not exist
    expect(await page(entry, { centerId: c2 })).toEqual(await page(entry, { centerId: randomUUID() }));
    expect((await page(entry, { centerId: c2 })).total).toBe(0);
    const other = await page(entry2);
    expect(other.records.map((r) => r.id)).toEqual(expect.arrayContaining([q6.id]));
    expect(other.records.every((r) => r.centerId === c2)).toBe(true);
  });

  it('should filter by status, center, form, raised by or assigned to me, and days open', async () => {
    expect((await page(monitor, { centerId: c2 })).records.map((r) => r.id)).toContain(q6.id);
    expect((await page(monitor, { centerId: c2 })).records.every((r) => r.centerId === c2)).toBe(true);
    const closed = await page(monitor, { status: 'closed' });
    expect(closed.records.length).toBeGreaterThan(0);
    expect(closed.records.every((r) => r.status === 'closed' && r.closedAt !== null)).toBe(true);
    const answered = await page(owner, { status: 'answered' });
    expect(answered.records.every((r) => r.status === 'answered')).toBe(true);
    expect(await page(monitor, { formKey: 'echocardiography' })).toMatchObject({ total: 0, records: [] });
    expect((await page(monitor, { formKey: 'vital_signs' })).total).toBeGreaterThanOrEqual(2);
    const raised = await page(monitor, { mine: 'raised' });
    expect(raised.records.map((r) => r.id)).toEqual(expect.arrayContaining([q1.id, q6.id]));
    expect((await page(owner, { mine: 'raised' })).records.map((r) => r.id)).not.toContain(q1.id);
    const assigned = await page(entry, { mine: 'assigned' });
    expect(assigned.records.map((r) => r.id)).toContain(q1.id);
    expect((await page(monitor, { mine: 'assigned' })).total).toBe(0);
    const old = await page(monitor, { minDaysOpen: 2 });
    expect(old.records.map((r) => r.id)).toContain(q1.id);
    expect(old.records.map((r) => r.id)).not.toContain(q6.id);
    const paged = await page(monitor, { size: 1, current: 2 });
    expect(paged.records).toHaveLength(1);
    expect(paged.size).toBe(1);
  });

  it('should mask the patient name without patient.pii', async () => {
    const [patient] = await t.db.select().from(patients).where(eq(patients.id, p1));
    const name = patient?.name ?? '';
    expect((await page(monitor)).records.find((r) => r.id === q1.id)?.patientName).toBe(name);
    const masked = (await page(reader)).records.find((r) => r.id === q1.id)?.patientName;
    expect(masked).not.toBe(name);
    expect(masked).toMatch(/\*/);
    expect(masked?.[0]).toBe(name[0]);
  });

  it('should answer 400 naming the field for a bad filter', async () => {
    for (const [filter, path] of [
      [{ status: 'pending' }, 'status'],
      [{ minDaysOpen: 2147483648 }, 'minDaysOpen'],
      [{ minDaysOpen: -1 }, 'minDaysOpen'],
      [{ formKey: "x' or 1=1" }, 'formKey'],
      [{ mine: 'everyone' }, 'mine'],
      [{ centerId: 'c1' }, 'centerId'],
      [{ size: 1000 }, 'size'],
    ] as const) {
      const res = await call(monitor, '/form-record/query/page', filter);
      expect(res.statusCode, JSON.stringify(filter)).toBe(400);
      expect(res.json<Body>().issues?.[0]?.path).toBe(path);
      expect(res.json<Body>().message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('should not list queries of a deleted or another project’s patient', async () => {
    await t.db.update(patients).set({ deletedAt: new Date() }).where(eq(patients.id, p6));
    try {
      expect((await page(monitor)).records.map((r) => r.id)).not.toContain(q6.id);
    } finally {
      await t.db.update(patients).set({ deletedAt: null }).where(eq(patients.id, p6));
    }
    // the same monitor in their other project sees none of this project's queries
    const entered = await t.api({ method: 'GET', url: `/web-project/change?projectId=${otherId}`, token: monitor });
    expect(entered.statusCode, entered.body).toBe(200);
    try {
      expect(await page(monitor)).toMatchObject({ total: 0, records: [] });
    } finally {
      await t.api({ method: 'GET', url: `/web-project/change?projectId=${hfId}`, token: monitor });
    }
  });
});
