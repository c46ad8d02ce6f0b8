import { and, eq, isNull } from 'drizzle-orm';
import { MENU_DEFINITIONS } from '@registry/shared/menu';
import { PERMISSIONS as P } from '@registry/shared/permissions';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import { hashPassword } from '../lib/password';
import type { Db, Executor } from './client';
import { seedDemoDatabases } from './seed-database';
import {
  centers,
  departments,
  joinRequests,
  menuItems,
  organisations,
  projectMembers,
  projects,
  roles,
  tenants,
  users,
} from './schema';

/**
 * Reference data every installation needs, brought up to date at every start: the built-in roles and the menu rows.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const role of Object.values(BUILT_IN_ROLES)) {
      const existing = await tx
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.code, role.code), isNull(roles.tenantId), isNull(roles.projectId)))
        .limit(1);
      const values = { name: role.name, scope: role.scope, builtIn: true, permissions: [...role.permissions] };
      if (existing[0])
        await tx
          .update(roles)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(roles.id, existing[0].id));
      else await tx.insert(roles).values({ code: role.code, ...values });
    }
    for (const m of MENU_DEFINITIONS) {
      const { id: _id, ...rest } = m;
      await tx.insert(menuItems).values(m).onConflictDoUpdate({ target: menuItems.id, set: rest });
    }
  });
}

/** The demo accounts (README and e2e tests use exactly these). */
export const DEMO_ACCOUNTS = [
  { username: 'admin', password: 'Admin@2026', role: '系统管理员（sys 租户）' },
  { username: 'owner', password: 'Demo@2026', role: '机构管理员，两个项目的项目负责人' },
  { username: 'entry', password: 'Demo@2026', role: '数据录入员（心力衰竭注册登记研究，示例第一人民医院中心）' },
  { username: 'entry2', password: 'Demo@2026', role: '数据录入员（心力衰竭注册登记研究，示例第二人民医院中心）' },
  { username: 'nurse', password: 'Demo@2026', role: '随访护士（心力衰竭注册登记研究）' },
  { username: 'monitor', password: 'Demo@2026', role: '监查员（两个项目）' },
  { username: 'stat', password: 'Demo@2026', role: '统计师（2型糖尿病随访队列；待审核的心衰研究加入申请）' },
  { username: 'newdoc', password: 'Init@2026', role: '数据录入员，首次登录须设置密码' },
  { username: 'personal', password: 'Demo@2026', role: '个人版用户' },
] as const;

async function builtInRoleId(tx: Executor, code: string): Promise<string> {
  const [row] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.code, code), isNull(roles.tenantId), isNull(roles.projectId)))
    .limit(1);
  if (!row) throw new Error(`built-in role ${code} missing: run seedReferenceData first`);
  return row.id;
}

/**
 * Demo data, once: skipped when the sys tenant exists. Returns true when it seeded.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  const existing = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, SYS_TENANT_CODE)).limit(1);
  if (existing[0]) {
    await db.transaction((tx) => seedDemoDatabases(tx)); // demo data of a later issue, for an older installation
    return false;
  }
  const passwords = Object.fromEntries(
    await Promise.all(DEMO_ACCOUNTS.map(async (a) => [a.username, await hashPassword(a.password)] as const)),
  ) as Record<(typeof DEMO_ACCOUNTS)[number]['username'], string>;

  const seeded = await db.transaction(async (tx) => {
    const [sys, h001, p001] = await tx
      .insert(tenants)
      .values([
        { code: SYS_TENANT_CODE, name: '系统租户', type: 'SYSTEM' },
        { code: 'h001', name: '示例第一人民医院', type: 'HOSPITAL' },
        { code: 'p001', name: '个人版-李医生', type: 'PERSONAL' },
      ])
      .onConflictDoNothing()
      .returning();
    if (!sys || !h001 || !p001) return false; // another process seeded at the same moment
    const [sysOrg, hospital, personalOrg, secondHospital] = await tx
      .insert(organisations)
      .values([
        { tenantId: sys.id, name: '平台运营中心' },
        { tenantId: h001.id, name: '示例第一人民医院' },
        { tenantId: p001.id, name: '个人版-李医生' },
        { tenantId: h001.id, name: '示例第二人民医院' },
      ])
      .returning();
    if (!sysOrg || !hospital || !personalOrg || !secondHospital) throw new Error('organisation seed failed');
    const [ops, cardio, endo] = await tx
      .insert(departments)
      .values([
        { tenantId: sys.id, organisationId: sysOrg.id, name: '运维部' },
        { tenantId: h001.id, organisationId: hospital.id, name: '心血管内科' },
        { tenantId: h001.id, organisationId: hospital.id, name: '内分泌科' },
      ])
      .returning();
    if (!ops || !cardio || !endo) throw new Error('department seed failed');

    const h = { tenantId: h001.id, organisationId: hospital.id };
    const inserted = await tx
      .insert(users)
      .values([
        {
          tenantId: sys.id,
          organisationId: sysOrg.id,
          departmentId: ops.id,
          username: 'admin',
          name: '平台管理员',
          passwordHash: passwords.admin,
          userType: 'ADMIN',
          tenantRoleCode: BUILT_IN_ROLES.sysAdmin.code,
        },
        {
          ...h,
          departmentId: cardio.id,
          username: 'owner',
          name: '王主任',
          phone: '13800000001',
          passwordHash: passwords.owner,
          tenantRoleCode: BUILT_IN_ROLES.tenantAdmin.code,
        },
        {
          ...h,
          departmentId: cardio.id,
          username: 'entry',
          name: '张录入',
          phone: '13800000002',
          passwordHash: passwords.entry,
          tenantRoleCode: BUILT_IN_ROLES.tenantMember.code,
        },
        {
          tenantId: h001.id,
          organisationId: secondHospital.id,
          username: 'entry2',
          name: '孙录入',
          phone: '13800000003',
          passwordHash: passwords.entry2,
          tenantRoleCode: BUILT_IN_ROLES.tenantMember.code,
        },
        {
          ...h,
          departmentId: cardio.id,
          username: 'nurse',
          name: '李护士',
          passwordHash: passwords.nurse,
          tenantRoleCode: BUILT_IN_ROLES.tenantMember.code,
        },
        {
          ...h,
          departmentId: cardio.id,
          username: 'monitor',
          name: '赵监查',
          passwordHash: passwords.monitor,
          tenantRoleCode: BUILT_IN_ROLES.tenantMember.code,
        },
        {
          ...h,
          departmentId: endo.id,
          username: 'stat',
          name: '陈统计',
          passwordHash: passwords.stat,
          tenantRoleCode: BUILT_IN_ROLES.tenantMember.code,
        },
        {
          ...h,
          departmentId: cardio.id,
          username: 'newdoc',
          name: '刘医生',
          passwordHash: passwords.newdoc,
          initPwd: true,
          tenantRoleCode: BUILT_IN_ROLES.tenantMember.code,
        },
        {
          tenantId: p001.id,
          organisationId: personalOrg.id,
          username: 'personal',
          name: '李医生',
          passwordHash: passwords.personal,
          userType: 'PERSONAL',
          tenantRoleCode: BUILT_IN_ROLES.personal.code,
        },
      ])
      .returning({ id: users.id, username: users.username });
    const u = Object.fromEntries(inserted.map((r) => [r.username, r.id])) as Record<string, string>;
    const id = (name: string) => {
      const v = u[name];
      if (!v) throw new Error(`user ${name} missing`);
      return v;
    };

    const [hf, t2dm, personalProject] = await tx
      .insert(projects)
      .values([
        {
          tenantId: h001.id,
          code: 'HF-REG',
          name: '心力衰竭注册登记研究',
          diseaseArea: '心力衰竭',
          description: '多中心心力衰竭患者注册登记与长期随访研究',
          status: 'active',
          ownerId: id('owner'),
        },
        {
          tenantId: h001.id,
          code: 'T2DM-FU',
          name: '2型糖尿病随访队列',
          diseaseArea: '2型糖尿病',
          description: '2型糖尿病患者前瞻性随访队列',
          status: 'active',
          ownerId: id('owner'),
        },
        {
          tenantId: p001.id,
          code: 'MY-CASES',
          name: '我的病例库',
          diseaseArea: null,
          description: '个人病例整理',
          status: 'active',
          ownerId: id('personal'),
        },
      ])
      .returning();
    if (!hf || !t2dm || !personalProject) throw new Error('project seed failed');
    const [hfpef] = await tx
      .insert(projects)
      .values({
        tenantId: h001.id,
        parentId: hf.id,
        code: 'HF-REG-HFPEF',
        name: '射血分数保留型心衰亚组',
        diseaseArea: '心力衰竭',
        description: '射血分数保留型心力衰竭（HFpEF）亚组队列',
        status: 'active',
        ownerId: id('owner'),
      })
      .returning();
    if (!hfpef) throw new Error('sub-project seed failed');

    const role = {
      owner: await builtInRoleId(tx, BUILT_IN_ROLES.projectOwner.code),
      entry: await builtInRoleId(tx, BUILT_IN_ROLES.dataEntry.code),
      nurse: await builtInRoleId(tx, BUILT_IN_ROLES.followupNurse.code),
      monitor: await builtInRoleId(tx, BUILT_IN_ROLES.monitor.code),
      stat: await builtInRoleId(tx, BUILT_IN_ROLES.statistician.code),
    };
    const [hfMain, hfSecond, t2dmMain, personalMain] = await tx
      .insert(centers)
      .values([
        {
          tenantId: h001.id,
          projectId: hf.id,
          organisationId: hospital.id,
          code: 'C01',
          name: '示例第一人民医院',
          leadUserId: id('owner'),
          isDefault: true,
        },
        {
          tenantId: h001.id,
          projectId: hf.id,
          organisationId: secondHospital.id,
          code: 'C02',
          name: '示例第二人民医院',
        },
        {
          tenantId: h001.id,
          projectId: t2dm.id,
          organisationId: hospital.id,
          code: 'C01',
          name: '示例第一人民医院',
          leadUserId: id('owner'),
          isDefault: true,
        },
        {
          tenantId: p001.id,
          projectId: personalProject.id,
          organisationId: personalOrg.id,
          code: 'C01',
          name: '个人版-李医生',
          isDefault: true,
        },
      ])
      .returning();
    if (!hfMain || !hfSecond || !t2dmMain || !personalMain) throw new Error('center seed failed');
    await tx.insert(roles).values({
      tenantId: h001.id,
      projectId: hf.id,
      code: 'qc',
      name: '质控员',
      scope: 'project',
      builtIn: false,
      permissions: [P.home, P.patientList, P.followupList, P.multicenterView, P.auditView],
    });
    await tx.insert(joinRequests).values({
      tenantId: h001.id,
      projectId: hf.id,
      userId: id('stat'),
      message: '申请参与心衰研究的数据分析',
    });

    const member = (
      projectId: string,
      tenantId: string,
      user: string,
      roleId: string,
      centerId: string | null = null,
    ) => ({
      tenantId,
      projectId,
      userId: id(user),
      roleId,
      centerId,
    });
    await tx
      .insert(projectMembers)
      .values([
        member(hf.id, h001.id, 'owner', role.owner),
        member(t2dm.id, h001.id, 'owner', role.owner),
        member(hf.id, h001.id, 'entry', role.entry, hfMain.id),
        member(hf.id, h001.id, 'entry2', role.entry, hfSecond.id),
        member(hf.id, h001.id, 'nurse', role.nurse),
        member(hf.id, h001.id, 'monitor', role.monitor),
        member(t2dm.id, h001.id, 'monitor', role.monitor),
        member(t2dm.id, h001.id, 'stat', role.stat),
        member(hf.id, h001.id, 'newdoc', role.entry),
        member(personalProject.id, p001.id, 'personal', role.owner),
      ]);
    await seedDemoDatabases(tx);
    return true;
  });
  return seeded;
}
