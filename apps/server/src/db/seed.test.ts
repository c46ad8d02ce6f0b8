import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTestApp, type TestApp } from '../../test/test-app';
import { DEMO_ACCOUNTS, seedDemo, seedReferenceData } from './seed';

type Body<T = unknown> = { status: number; message: string; data: T };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(); // seeds reference and demo data once
});
afterAll(async () => {
  await t?.close();
});

describe('seed', () => {
  it('should seed the demo data only once and keep reference data without duplicates', async () => {
    const tables = [
      'tenants',
      'users',
      'projects',
      'project_members',
      'roles',
      'menu_items',
      'centers',
      'join_requests',
    ];
    const before = await Promise.all(tables.map((name) => countRows(t, name)));
    expect(await seedDemo(t.db)).toBe(false);
    await seedReferenceData(t.db);
    expect(await Promise.all(tables.map((name) => countRows(t, name)))).toEqual(before);
    expect(before[0]).toBe(3);
  });

  it('should let every demo account sign in with its documented password', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const res = await t.api({
        method: 'POST',
        url: '/auth/login',
        payload: { loginType: 'password', username: account.username, password: account.password },
      });
      expect(res.statusCode, account.username).toBe(200);
      expect(res.json<Body<{ initPwd: boolean }>>().data.initPwd).toBe(account.username === 'newdoc');
    }
  });

  it('should give the accounts their tenants, hospitals and departments', async () => {
    const expectations: Record<string, { tenantCode: string; hospitalName: string; departmentName: string }> = {
      admin: { tenantCode: 'sys', hospitalName: '平台运营中心', departmentName: '运维部' },
      owner: { tenantCode: 'h001', hospitalName: '示例第一人民医院', departmentName: '心血管内科' },
      stat: { tenantCode: 'h001', hospitalName: '示例第一人民医院', departmentName: '内分泌科' },
      personal: { tenantCode: 'p001', hospitalName: '个人版-李医生', departmentName: '' },
    };
    for (const [username, expected] of Object.entries(expectations)) {
      const account = DEMO_ACCOUNTS.find((a) => a.username === username);
      const token = await t.login(username, account?.password ?? '');
      const info = (await t.api({ method: 'GET', url: '/sys-user/user-info', token })).json<
        Body<{ tenantCode: string; tenant: { tenantType: string } }>
      >();
      expect(info.data.tenantCode, username).toBe(expected.tenantCode);
      const list = (await t.api({ method: 'POST', url: '/web-project/list', token, payload: {} })).json<
        Body<{ hospitalName: string; departmentName: string; projectVOs: { projectCode: string }[] }>
      >();
      expect(list.data.hospitalName, username).toBe(expected.hospitalName);
      expect(list.data.departmentName, username).toBe(expected.departmentName);
    }
    const personal = await t.login('personal', 'Demo@2026');
    const info = (await t.api({ method: 'GET', url: '/sys-user/user-info', token: personal })).json<
      Body<{ tenant: { tenantType: string } }>
    >();
    expect(info.data.tenant.tenantType).toBe('PERSONAL');
    const projects = (await t.api({ method: 'POST', url: '/web-project/list', token: personal, payload: {} })).json<
      Body<{ projectVOs: { projectName: string; owned: boolean }[] }>
    >();
    expect(projects.data.projectVOs).toEqual([expect.objectContaining({ projectName: '我的病例库', owned: true })]);
  });

  it('should make the SMS demo phones reach owner and entry', async () => {
    for (const [phone, username] of [
      ['13800000001', 'owner'],
      ['13800000002', 'entry'],
    ] as const) {
      t.clock.advanceMinutes(2);
      await t.api({ method: 'GET', url: '/auth/sms', query: { phone } });
      const code = /(\d{6})/.exec(t.sms.findLast((m) => m.phone === phone)?.text ?? '')?.[1];
      const res = await t.api({
        method: 'POST',
        url: '/auth/login',
        payload: { loginType: 'sms', phone, smsCode: code },
      });
      const token = res.json<Body<{ token: string }>>().data.token;
      const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
      expect(info.json<Body<{ username: string }>>().data.username).toBe(username);
    }
  });

  it('should give HF-REG two centers, entry and entry2 one each, a pending join request from stat and the 质控员 role', async () => {
    const owner = await t.login('owner', 'Demo@2026');
    const list = (await t.api({ method: 'POST', url: '/web-project/list', token: owner, payload: {} })).json<
      Body<{ projectVOs: { id: string; projectCode: string }[] }>
    >();
    const hf = list.data.projectVOs.find((p) => p.projectCode === 'HF-REG');
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${hf?.id}`, token: owner });
    const centers = (await t.api({ method: 'GET', url: '/project-center/list', token: owner })).json<
      Body<{ name: string; isDefault: boolean }[]>
    >();
    expect(centers.data.map((c) => [c.name, c.isDefault])).toEqual([
      ['示例第一人民医院', true],
      ['示例第二人民医院', false],
    ]);
    const members = (await t.api({ method: 'POST', url: '/project-member/page', token: owner, payload: {} })).json<
      Body<{ records: { username: string; centerName: string | null; roleName: string }[] }>
    >();
    const byName = Object.fromEntries(members.data.records.map((m) => [m.username, m]));
    expect(byName.entry).toMatchObject({ centerName: '示例第一人民医院', roleName: '数据录入员' });
    expect(byName.entry2).toMatchObject({ centerName: '示例第二人民医院', roleName: '数据录入员' });
    const roles = (await t.api({ method: 'GET', url: '/project-role/list', token: owner })).json<
      Body<{ name: string; builtIn: boolean }[]>
    >();
    expect(roles.data.filter((r) => !r.builtIn).map((r) => r.name)).toEqual(['质控员']);
    const requests = (
      await t.api({
        method: 'POST',
        url: '/web-project/join-request/page',
        token: owner,
        payload: { status: 'pending' },
      })
    ).json<Body<{ records: { username: string; projectCode: string }[] }>>();
    expect(requests.data.records).toEqual([expect.objectContaining({ username: 'stat', projectCode: 'HF-REG' })]);
  });
});
