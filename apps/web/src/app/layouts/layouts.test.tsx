import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../test/server';
import { apiUrl, http, ok } from '../../test/api';
import { renderRoute } from '../../test/router';
import { buildMenuItem, buildUserInfo } from '../../test/factories';
import { setToken } from '../../lib/token';
import { useMenuStore } from '../../lib/stores/menu-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { MainLayout } from './main-layout';
import { PersonLayout } from './person-layout';

function serveMenus() {
  const groups: (string | null)[] = [];
  server.use(
    http.get(apiUrl('/sys-user/user-info'), () => ok(buildUserInfo())),
    http.get(apiUrl('/notification/unread-count'), () => ok({ count: 0 })),
    http.post(apiUrl('/web-project/list'), () =>
      ok({ hospitalName: '示例第一人民医院', departmentName: '心血管内科', projectVOs: [] }),
    ),
    http.get(apiUrl('/auth/menu'), ({ request }) => {
      const group = new URL(request.url).searchParams.get('groupCode');
      groups.push(group);
      return group === 'index'
        ? ok({
            menus: [buildMenuItem({ id: 'pp', name: '项目列表', href: '/person/project', icon: 'AppstoreOutlined' })],
            permissions: ['project.list', 'patient.list'],
          })
        : ok({
            menus: [
              buildMenuItem({ id: 'h', name: '首页', href: '/home', icon: 'HomeOutlined' }),
              buildMenuItem({ id: 'x', name: '隐藏菜单', href: '/x', showFlag: false }),
            ],
            permissions: ['patient.list', 'patient.add'],
          });
    }),
  );
  return groups;
}

describe('PersonLayout', () => {
  it('should fetch the index menu, store it and append its permissions when it appears', async () => {
    setToken('tok');
    const groups = serveMenus();
    useMenuStore.getState().setProjectMenu([], ['patient.list', 'patient.add']);
    renderRoute(<PersonLayout />, { path: '/person/project', at: '/person/project' });
    expect(await screen.findByRole('menuitem', { name: /项目列表/ })).toBeInTheDocument();
    expect(groups).toContain('index');
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('web-permissions') ?? '[]')).toEqual([
        'patient.list',
        'patient.add',
        'project.list',
      ]),
    );
    expect(JSON.parse(localStorage.getItem('web-menu-person') ?? '[]')).toHaveLength(1);
  });
});

describe('MainLayout', () => {
  it('should show the shown items of the project menu and persist the collapse state when toggled', async () => {
    setToken('tok');
    const groups = serveMenus();
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p1', projectName: '心衰登记', subProject: false });
    const user = userEvent.setup({ delay: null });
    renderRoute(<MainLayout />, { path: '/home', at: '/home' });
    expect(await screen.findByRole('menuitem', { name: /首页/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /隐藏菜单/ })).not.toBeInTheDocument();
    expect(groups).toContain('project');
    await user.click(screen.getByRole('button', { name: '收起菜单' }));
    expect(await screen.findByRole('button', { name: '展开菜单' })).toBeInTheDocument();
    expect(localStorage.getItem('isCollapse')).toBe('true');
  });

  it('should send the user to the project list when no project is chosen', async () => {
    setToken('tok');
    serveMenus();
    renderRoute(<MainLayout />, { path: '/home', at: '/home' });
    expect(await screen.findByTestId('location')).toHaveTextContent('/person/project');
  });
});
