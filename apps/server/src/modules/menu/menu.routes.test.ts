import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuItem } from '@registry/shared/contracts/auth';
import { hospital, member, project, type Account, type TestProject } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T };
type Menu = { menus: MenuItem[]; permissions: string[] };

let t: TestApp;
/** Two projects of one hospital: the administrator owns both; entry and nurse work in hf, stat in t2dm. */
let owner: Account;
let entry: Account;
let nurse: Account;
let stat: Account;
let hf: TestProject;
let t2dm: TestProject;
beforeAll(async () => {
  t = await createBareTestApp();
  owner = (await hospital(t)).admin;
  hf = await project(t, owner);
  t2dm = await project(t, owner);
  entry = await member(t, hf, 'data_entry');
  nurse = await member(t, hf, 'followup_nurse', { centerId: null });
  stat = await member(t, t2dm, 'statistician', { centerId: null });
});
/** A new session of the account: no current project yet. */
const signIn = (a: Account) => t.login(a.username, a.password);
afterAll(async () => {
  await t?.close();
});

const hrefs = (items: MenuItem[]): string[] =>
  items.flatMap((m) => [...(m.href ? [m.href] : []), ...hrefs(m.children)]);
const menu = async (token: string, groupCode: string) =>
  (await t.api({ method: 'GET', url: '/auth/menu', query: { groupCode }, token })).json<Body<Menu>>().data;

async function enter(token: string, code: string) {
  const list = await t.api({ method: 'POST', url: '/web-project/list', token, payload: {} });
  const p = list
    .json<Body<{ projectVOs: { id: string; projectCode: string }[] }>>()
    .data.projectVOs.find((x) => x.projectCode === code);
  const res = await t.api({ method: 'GET', url: '/web-project/change', query: { projectId: p?.id ?? '' }, token });
  expect(res.statusCode).toBe(200);
}

describe('GET auth/menu', () => {
  it('should give a hospital member the personal menu of the tenant role only', async () => {
    const token = await signIn(entry);
    const data = await menu(token, 'index');
    expect(hrefs(data.menus)).toEqual(['/person/project', '/person/equity', '/person/order']);
    expect(data.permissions.sort()).toEqual(['equity.view', 'order.view', 'project.list']);
    expect(data.menus.every((m) => m.type === '2' && m.showFlag && m.icon)).toBe(true);
  });

  it('should add the project configuration group for an owner inside a project', async () => {
    const token = await signIn(owner);
    expect(hrefs((await menu(token, 'index')).menus)).not.toContain('/manage/database');
    await enter(token, hf.code);
    const data = await menu(token, 'index');
    const group = data.menus.find((m) => m.name === '项目配置');
    expect(group?.type).toBe('1');
    expect(hrefs(group?.children ?? [])).toEqual([
      '/manage/database',
      '/manage/database/followup',
      '/manage/database/config',
      '/manage/followup',
      '/manage/fix-followup-plan',
      '/manage/followup/config',
      '/manage/permissions',
      '/manage/sub-center',
      '/manage/permissions?tab=audit',
      '/manage/random',
    ]);
    expect(data.permissions).not.toContain('database.config');
  });

  it("should filter the project menu by the member's role in the current project", async () => {
    const token = await signIn(stat);
    await enter(token, t2dm.code);
    const data = await menu(token, 'project');
    expect(hrefs(data.menus)).toEqual(['/home', '/retrieval', '/retrieval/export', '/analysis']);
    expect(data.menus.map((m) => m.name)).toEqual(['首页', '数据检索', '统计分析']);
    expect(data.permissions).toEqual(expect.arrayContaining(['project.list', 'home.view', 'analysis.view']));
    expect(data.permissions).not.toContain('patient.list');
  });

  it('should give the owner the whole project menu', async () => {
    const token = await signIn(owner);
    await enter(token, hf.code);
    const data = await menu(token, 'project');
    expect(hrefs(data.menus)).toEqual([
      '/home',
      '/patient/list',
      '/patient/add',
      '/patient/query',
      '/retrieval',
      '/retrieval/export',
      '/analysis',
      '/discern/list',
      '/followup/list',
      '/multicenter/overview',
      '/multicenter/patient',
      '/multicenter/followup',
      '/manage/database',
      '/manage/database/followup',
      '/manage/database/config',
      '/manage/followup',
      '/manage/fix-followup-plan',
      '/manage/followup/config',
      '/manage/permissions',
      '/manage/sub-center',
      '/manage/permissions?tab=audit',
      '/manage/random',
    ]);
    // The configuration is reached from the project's own menu, without 切换项目.
    expect(data.menus.at(-1)).toMatchObject({ name: '项目配置', type: '1' });
  });

  it('should not offer the project configuration to a data-entry member inside the project', async () => {
    const token = await signIn(entry);
    await enter(token, hf.code);
    const data = await menu(token, 'project');
    expect(data.menus.map((m) => m.name)).not.toContain('项目配置');
    expect(hrefs(data.menus).filter((h) => h.startsWith('/manage/'))).toEqual([]);
    // the open-queries list under 患者管理, for the data-entry member too
    const patient = data.menus.find((m) => m.name === '患者管理');
    expect(patient?.children?.map((c) => [c.name, c.href])).toContainEqual(['质疑管理', '/patient/query']);
  });

  it('should give an empty project menu before a project is chosen and require the group code', async () => {
    const token = await signIn(nurse);
    expect((await menu(token, 'project')).menus).toEqual([]);
    const res = await t.api({ method: 'GET', url: '/auth/menu', token });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('菜单分组：不能为空');
  });
});
