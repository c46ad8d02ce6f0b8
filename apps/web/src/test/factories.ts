import type { UserInfo } from '@registry/shared/contracts/user';
import type { ProjectVO } from '@registry/shared/contracts/project';
import type { MenuItem } from '@registry/shared/contracts/auth';

export function buildUserInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    avatar: null,
    id: 'u-1001',
    username: 'zhangwei',
    userType: 'USER',
    name: '张伟',
    tenantCode: 'renji',
    tenant: { id: 't-hospital', tenantType: 'HOSPITAL' },
    initPwd: false,
    tenantName: '仁济医院',
    homeTenantCode: 'renji',
    supportAccessUntil: null,
    ...overrides,
  };
}

export function buildProject(overrides: Partial<ProjectVO> = {}): ProjectVO {
  return {
    id: 'p-1',
    projectCode: 'HF-2026',
    projectName: '慢性心力衰竭患者登记研究',
    subProject: false,
    parentId: null,
    status: 'active',
    diseaseArea: '心血管',
    description: '多中心慢性心衰患者前瞻性登记',
    roleName: '项目负责人',
    owned: true,
    createdAt: '2026-01-05T08:00:00.000Z',
    ...overrides,
  };
}

export function buildMenuItem(overrides: Partial<MenuItem> = {}): MenuItem {
  return {
    id: 'm-1',
    type: '2',
    showFlag: true,
    name: '患者列表',
    icon: 'TeamOutlined',
    href: '/patient/list',
    children: [],
    ...overrides,
  };
}
