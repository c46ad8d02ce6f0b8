import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, pageConfigs } from '../../db/schema';
import { hospital, member, project, type Account } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Layout = { pageKey: string; config: { columns: { key: string; visible: boolean; width?: number }[] } | null };

let t: TestApp;
let owner: string;
let entry: string;
let ownerAccount: Account;
let entryAccount: Account;
let hfId: string;
let t2dmId: string;

const LAYOUT = {
  columns: [
    { key: 'patientNo', visible: true, width: 120 },
    { key: 'field:bmi', visible: true },
    { key: 'phone', visible: false },
  ],
  pageSize: 50,
};

const get = (token: string, pageKey = 'patient-list') =>
  t.api({ method: 'GET', url: `/page-config-custom?pageKey=${pageKey}`, token });
const save = (token: string, config: unknown, pageKey = 'patient-list') =>
  t.api({ method: 'POST', url: '/page-config-custom', token, payload: { pageKey, config } as Record<string, unknown> });
const remove = (token: string, pageKey = 'patient-list') =>
  t.api({ method: 'DELETE', url: `/page-config-custom?pageKey=${pageKey}`, token });
const enter = (token: string, projectId: string) =>
  t.api({ method: 'GET', url: `/web-project/change?projectId=${projectId}`, token });

beforeAll(async () => {
  t = await createBareTestApp();
  // One hospital, two projects of its administrator; entry is a data-entry member of the first.
  ownerAccount = (await hospital(t)).admin;
  const hf = await project(t, ownerAccount);
  hfId = hf.id;
  t2dmId = (await project(t, ownerAccount)).id;
  entryAccount = await member(t, hf, 'data_entry');
  // New sessions with no project chosen yet.
  owner = await t.login(ownerAccount.username, ownerAccount.password);
  entry = await t.login(entryAccount.username, entryAccount.password);
});
afterAll(async () => {
  await t.close();
});

describe('page-config-custom', () => {
  it('should answer 404 请先选择项目 when no project is chosen', async () => {
    const fresh = await t.login(entryAccount.username, entryAccount.password);
    const res = await get(fresh);
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('请先选择项目');
    expect((await save(fresh, LAYOUT)).statusCode).toBe(404);
  });

  it('should answer the default (null) before anything is saved', async () => {
    await enter(owner, hfId);
    const res = await get(owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Body<Layout>>().data).toEqual({ pageKey: 'patient-list', config: null });
  });

  it('should save, read back and replace the layout, auditing each save with old and new values', async () => {
    const first = await save(owner, LAYOUT);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<Body<Layout>>().data.config).toEqual(LAYOUT);
    expect((await get(owner)).json<Body<Layout>>().data.config).toEqual(LAYOUT);
    const next = { columns: [{ key: 'name', visible: true, width: 200 }] };
    expect((await save(owner, next)).statusCode).toBe(200);
    expect((await get(owner)).json<Body<Layout>>().data.config).toEqual(next);
    const rows = await t.db.select().from(pageConfigs).where(eq(pageConfigs.projectId, hfId));
    expect(rows).toHaveLength(1);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'page_config.save'));
    expect(events).toHaveLength(2);
    expect(events[1]?.oldValue).toEqual({ config: LAYOUT });
    expect(events[1]?.newValue).toEqual({ projectId: hfId, pageKey: 'patient-list', config: next });
  });

  it('should keep layouts per user: another user reads only their own', async () => {
    await enter(entry, hfId);
    expect((await get(entry)).json<Body<Layout>>().data.config).toBeNull();
    const mine = { columns: [{ key: 'hospitalNo', visible: true }] };
    expect((await save(entry, mine)).statusCode).toBe(200);
    expect((await get(entry)).json<Body<Layout>>().data.config).toEqual(mine);
    expect((await get(owner)).json<Body<Layout>>().data.config).toEqual({
      columns: [{ key: 'name', visible: true, width: 200 }],
    });
    // deleting one's own leaves the other user's
    expect((await remove(entry)).json<Body<Layout>>().data.config).toBeNull();
    expect((await get(owner)).json<Body<Layout>>().data.config).not.toBeNull();
  });

  it('should keep layouts per project: another project starts from the default', async () => {
    const other = await t.login(ownerAccount.username, ownerAccount.password);
    await enter(other, t2dmId);
    expect((await get(other)).json<Body<Layout>>().data.config).toBeNull();
    await save(other, { columns: [{ key: 'field:hba1c', visible: true }] });
    expect((await get(other)).json<Body<Layout>>().data.config?.columns[0]?.key).toBe('field:hba1c');
    expect((await get(owner)).json<Body<Layout>>().data.config?.columns[0]?.key).toBe('name');
  });

  it('should delete back to the default with an audit event, and answer the default when nothing is saved', async () => {
    const res = await remove(owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Body<Layout>>().data).toEqual({ pageKey: 'patient-list', config: null });
    expect((await get(owner)).json<Body<Layout>>().data.config).toBeNull();
    const before = (await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'page_config.delete'))).length;
    expect((await remove(owner)).statusCode).toBe(200);
    const after = (await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'page_config.delete'))).length;
    expect(after).toBe(before);
  });

  it.each([
    [{ pageKey: 'nope', config: LAYOUT }, 'pageKey', '页面：页面不正确'],
    [
      { pageKey: 'patient-list', config: { columns: [{ key: 'a b', visible: true }] } },
      'config.columns.0.key',
      '列：列不正确',
    ],
    [
      { pageKey: 'patient-list', config: { columns: [{ key: 'name', visible: true, width: 10 }] } },
      'config.columns.0.width',
      '列宽：列宽不能小于40',
    ],
    [
      {
        pageKey: 'patient-list',
        config: {
          columns: [
            { key: 'name', visible: true },
            { key: 'name', visible: false },
          ],
        },
      },
      'config.columns.1.key',
      '列：列 name 重复',
    ],
    [
      { pageKey: 'patient-list', config: { columns: [], pageSize: 5 } },
      'config.pageSize',
      '每页条数：每页条数不能小于10',
    ],
  ])('should answer 400 with the path when the body is %j', async (payload, path, message) => {
    await enter(owner, hfId);
    const res = await t.api({ method: 'POST', url: '/page-config-custom', token: owner, payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<Body>().issues).toContainEqual({ path, message });
  });

  it('should answer 400 on a GET without a valid page key and 401 without a session', async () => {
    expect((await get(owner, 'other')).statusCode).toBe(400);
    expect((await t.api({ method: 'GET', url: '/page-config-custom?pageKey=patient-list' })).statusCode).toBe(401);
  });
});
