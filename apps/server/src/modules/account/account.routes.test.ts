import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../db/schema';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { buildTenant, buildUser } from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';
import { PNG_1X1 } from '../../../test/files';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Info = {
  id: string;
  username: string;
  name: string;
  avatar: string | null;
  initPwd: boolean;
  tenantCode: string;
  tenant: { id: string; tenantType: string };
  userType: string;
};

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestApp;
let h001: string;
let p001: string;
/** Hospital h001's administrator (with a phone), a doctor of it, and the user of a personal tenant. */
let owner: User;
let entry: User;
let personal: User;
beforeAll(async () => {
  t = await createBareTestApp();
  h001 = (await buildTenant(t.db, { code: 'h001' })).tenant.id;
  p001 = (await buildTenant(t.db, { type: 'PERSONAL' })).tenant.id;
  owner = await buildUser(t.db, h001, {
    username: 'owner',
    name: '王主任',
    phone: '13800000001',
    tenantRoleCode: BUILT_IN_ROLES.tenantAdmin.code,
  });
  entry = await buildUser(t.db, h001);
  personal = await buildUser(t.db, p001, { userType: 'PERSONAL', tenantRoleCode: BUILT_IN_ROLES.personal.code });
});
const signIn = (user: User) => t.login(user.username, user.password);
afterAll(async () => {
  await t?.close();
});

async function upload(token: string, name: string, data: Buffer, purpose = 'avatar') {
  const boundary = '----registrytest';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.api({
    method: 'POST',
    url: `/oss/file/upload?purpose=${purpose}`,
    token,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

describe('GET sys-user/user-info', () => {
  it('should describe the signed-in user and the acting tenant without secrets', async () => {
    const token = await signIn(owner);
    const res = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(res.statusCode).toBe(200);
    const body = res.json<Body<Info>>();
    expect(body).toMatchObject({ status: 200, message: '操作成功' });
    expect(body.data).toMatchObject({
      username: 'owner',
      name: '王主任',
      tenantCode: 'h001',
      initPwd: false,
      avatar: null,
    });
    expect(body.data.tenant.tenantType).toBe('HOSPITAL');
    expect(res.body).not.toMatch(/argon2|password|13800000001/);
  });
});

describe('PUT sys-user', () => {
  it('should change the own name and audit old and new values', async () => {
    const user = await buildUser(t.db, h001, { name: '旧名字' });
    const token = await t.login(user.username, user.password);
    const res = await t.api({ method: 'PUT', url: '/sys-user', token, payload: { id: user.id, name: '新名字' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<Info>>().data.name).toBe('新名字');
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, user.id));
    expect(event).toMatchObject({
      action: 'user.update',
      actorId: user.id,
      oldValue: { name: '旧名字' },
      newValue: { name: '新名字' },
    });
    expect(event?.requestId).toBeTruthy();
    expect(event?.ip).toBe('127.0.0.1');
  });

  it("should answer 404 for another user's id and change nothing", async () => {
    const token = await signIn(entry);
    const audits = await countRows(t, 'audit_events');
    const res = await t.api({ method: 'PUT', url: '/sys-user', token, payload: { id: owner.id, name: '篡改' } });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('用户不存在');
    const [after] = await t.db.select().from(users).where(eq(users.username, 'owner'));
    expect(after?.name).toBe(owner.name);
    expect(await countRows(t, 'audit_events')).toBe(audits);
  });

  it('should validate the name in Chinese', async () => {
    const token = await signIn(entry);
    const res = await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('姓名：请输入姓名');
    const wrongType = await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: 12 } });
    expect(wrongType.statusCode).toBe(400);
  });

  it('should let a PERSONAL user set an uploaded image as avatar and show it as a preview URL', async () => {
    const token = await signIn(personal);
    const up = await upload(token, 'me.png', PNG_1X1);
    expect(up.statusCode).toBe(200);
    const { id, previewUrl } = up.json<Body<{ id: string; previewUrl: string }>>().data;
    const res = await t.api({
      method: 'PUT',
      url: '/sys-user',
      token,
      payload: { avatar: `${previewUrl}?access_token=${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<Info>>().data.avatar).toBe(`/api/cmdb-template/oss/file/preview/${id}`);
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(info.json<Body<Info>>().data.avatar).toBe(previewUrl);
  });

  it("should refuse an avatar that is not one of the caller's uploads", async () => {
    const uploader = await signIn(personal);
    const up = await upload(uploader, 'me.png', PNG_1X1);
    const other = await buildUser(t.db, p001);
    const token = await t.login(other.username, other.password);
    const res = await t.api({
      method: 'PUT',
      url: '/sys-user',
      token,
      payload: { avatar: up.json<Body<{ id: string }>>().data.id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('头像文件不存在或不是图片');
    const external = await t.api({
      method: 'PUT',
      url: '/sys-user',
      token,
      payload: { avatar: 'https://evil.example/x.png' },
    });
    expect(external.statusCode).toBe(400);
  });

  it('should refuse an avatar change by a user whose tenant is not PERSONAL', async () => {
    const token = await signIn(entry);
    const up = await upload(token, 'me.png', PNG_1X1);
    const res = await t.api({
      method: 'PUT',
      url: '/sys-user',
      token,
      payload: { avatar: up.json<Body<{ id: string }>>().data.id },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<Body>().message).toBe('无权限执行此操作');
  });

  it('should roll the change back when the audit write fails', async () => {
    const user = await buildUser(t.db, h001, { name: '审计前' });
    const token = await t.login(user.username, user.password);
    await t.database.ownerPool().query(`
      create function test_fail_audit() returns trigger language plpgsql as $$ begin raise exception 'audit store down'; end $$;
      create trigger test_fail_audit before insert on audit_events for each row execute function test_fail_audit();`);
    try {
      const res = await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: '审计后' } });
      expect(res.statusCode).toBe(500);
      expect(res.json<Body>()).toMatchObject({ status: 500, message: '服务器内部错误', data: null });
      expect(res.body).not.toContain('audit store down');
    } finally {
      await t.database
        .ownerPool()
        .query('drop trigger test_fail_audit on audit_events; drop function test_fail_audit();');
    }
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after?.name).toBe('审计前');
  });

  it('should refuse to update or delete audit rows (append-only), even to the owner of the table', async () => {
    const owner = t.database.ownerPool();
    await expect(owner.query('update audit_events set action = $1', ['x'])).rejects.toThrow(/append-only/);
    await expect(owner.query('delete from audit_events')).rejects.toThrow(/append-only/);
  });
});

describe('POST sys-user/change-pwd', () => {
  const change = (token: string, payload: Record<string, unknown>) =>
    t.api({ method: 'POST', url: '/sys-user/change-pwd', token, payload });

  it('should set the initial password without the old one, clear initPwd and audit without hashes', async () => {
    const user = await buildUser(t.db, h001, { initPwd: true, password: 'Init@2026' });
    const token = await t.login(user.username, 'Init@2026');
    const res = await change(token, { newPassword: 'Fresh-2026-pass' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body>().message).toBe('密码设置成功，请重新登录');
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.initPwd).toBe(false);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, user.id));
    expect(events.map((e) => e.action)).toContain('user.password.set');
    expect(JSON.stringify(events)).not.toMatch(/argon2|Fresh-2026-pass|Init@2026/);
  });

  it('should change the password when the old one is right', async () => {
    const user = await buildUser(t.db, h001);
    const token = await t.login(user.username, user.password);
    const res = await change(token, { password: user.password, newPassword: 'Another-pass-2026' });
    expect(res.json<Body>()).toMatchObject({ status: 200, message: '密码修改成功，请重新登录' });
    expect(
      (
        await t.api({
          method: 'POST',
          url: '/auth/login',
          payload: { loginType: 'password', username: user.username, password: user.password },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('should refuse a missing or wrong old password and keep the password and sessions', async () => {
    const user = await buildUser(t.db, h001);
    const token = await t.login(user.username, user.password);
    const [before] = await t.db.select().from(users).where(eq(users.id, user.id));
    const missing = await change(token, { newPassword: 'Another-pass-2026' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<Body>().message).toBe('请输入原密码');
    const wrong = await change(token, { password: 'nope', newPassword: 'Another-pass-2026' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<Body>().message).toBe('原密码错误');
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect((await t.api({ method: 'GET', url: '/sys-user/user-info', token })).statusCode).toBe(200);
  });

  it('should enforce the shared password rule at the field and refuse the same password', async () => {
    const user = await buildUser(t.db, h001, { password: 'Same-2026-password' });
    const token = await t.login(user.username, 'Same-2026-password');
    const refused = async (newPassword: string, message: string) => {
      const res = await change(token, { password: 'Same-2026-password', newPassword });
      expect(res.statusCode).toBe(400);
      expect(res.json<Body>().message).toBe(message);
      expect(res.json<Body>().issues).toEqual([{ path: 'newPassword', message }]);
    };
    // 11 characters (the old rule's 8 with letters and digits passed): too short now.
    await refused('Short@2026x', '新密码：新密码至少12位');
    await refused('x'.repeat(129), '新密码：新密码不能超过128位');
    await refused('Password@2026', '新密码：新密码过于常见，容易被猜到，请换一个');
    await refused('aaaaaaaaaaaaaaa', '新密码：新密码过于常见，容易被猜到，请换一个');
    await refused(`my-${user.username}-pass`, '新密码不能包含用户名');
    const missing = await change(token, { password: 'Same-2026-password' });
    expect(missing.json<Body>().message).toBe('新密码：不能为空');
    const same = await change(token, { password: 'Same-2026-password', newPassword: 'Same-2026-password' });
    expect(same.statusCode).toBe(400);
    expect(same.json<Body>().message).toBe('新密码不能与原密码相同');
    // No composition rule: a long passphrase of lower-case words and spaces is accepted (and the 64-char ceiling too).
    const phrase = 'correct horse battery staple under the old oak tree by the river bank';
    expect(phrase.length).toBeGreaterThan(64);
    const ok = await change(token, { password: 'Same-2026-password', newPassword: phrase });
    expect(ok.statusCode).toBe(200);
    expect((await t.login(user.username, phrase)).length).toBeGreaterThan(20);
  });
});
