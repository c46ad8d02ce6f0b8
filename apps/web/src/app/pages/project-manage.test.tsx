import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../test/server';
import { apiUrl, http, ok } from '../../test/api';
import { renderRoute } from '../../test/router';
import { buildUserInfo } from '../../test/factories';
import { setToken } from '../../lib/token';
import { useMenuStore } from '../../lib/stores/menu-store';
import { canManageTenants } from '../../features/tenant/components/tenant-panel';
import { ProjectManageRoute } from './project-manage';

function serve(info = buildUserInfo()) {
  server.use(
    http.get(apiUrl('/sys-user/user-info'), () => ok(info)),
    http.post(apiUrl('/web-project/list/owned'), () => ok({ departmentName: '', hospitalName: '', projectVOs: [] })),
    http.post(apiUrl('/web-project/join-request/page'), () => ok({ records: [], total: 0, current: 1, size: 1 })),
    http.get(apiUrl('/sys-tenant/page'), () =>
      ok({
        records: [
          {
            id: 't-1',
            code: 'renji',
            name: '仁济医院',
            type: 'HOSPITAL',
            userCount: 3,
            projectCount: 1,
            createdAt: '2026-11-01T08:00:00.000Z',
          },
        ],
        total: 1,
        current: 1,
        size: 10,
      }),
    ),
    http.get(apiUrl('/support-access/list'), () => ok({ activeUntil: null, grants: [] })),
  );
}

describe('canManageTenants', () => {
  it('should offer 租户管理 to system-tenant users only', () => {
    expect(canManageTenants(['tenant.manage'], { homeTenantCode: 'sys', tenantCode: 'sys' })).toBe(true);
    expect(canManageTenants([], { homeTenantCode: 'sys', tenantCode: 'sys' })).toBe(true);
    expect(canManageTenants(['tenant.manage'], { homeTenantCode: 'sys', tenantCode: 'renji' })).toBe(true);
    expect(canManageTenants([], { homeTenantCode: 'sys', tenantCode: 'renji' })).toBe(false);
    expect(canManageTenants(['tenant.manage'], { homeTenantCode: 'renji', tenantCode: 'renji' })).toBe(false);
  });
});

describe('项目管理 route', () => {
  it('should add the tenants tab for a system administrator and list the tenants in it', async () => {
    setToken('tok');
    useMenuStore.getState().setPersonMenu([], ['tenant.manage']);
    serve(buildUserInfo({ tenantCode: 'sys', homeTenantCode: 'sys', tenantName: '系统' }));
    renderRoute(<ProjectManageRoute />, { path: '/person/project-manage', at: '/person/project-manage' });
    await userEvent.click(await screen.findByRole('tab', { name: '租户管理' }));
    expect(await screen.findByText('仁济医院')).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: '支持访问' })).not.toBeInTheDocument();
  });

  it('should add 支持访问 and not 租户管理 for a hospital administrator', async () => {
    setToken('tok');
    useMenuStore.getState().setPersonMenu([], ['support.grant']);
    serve();
    renderRoute(<ProjectManageRoute />, { path: '/person/project-manage', at: '/person/project-manage' });
    expect(await screen.findByRole('tab', { name: '支持访问' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '我管理的项目' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: '租户管理' })).not.toBeInTheDocument();
  });
});
