import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { server } from '../test/server';
import { apiUrl, http, HttpResponse, ok } from '../test/api';

const notChosen = { status: 404, message: '请先选择项目', data: null, requestId: 'r-1' };
import { renderRoute } from '../test/router';
import { setToken } from '../lib/token';
import { useMenuStore } from '../lib/stores/menu-store';
import { useProjectStore } from '../lib/stores/project-store';
import { RequirePermission } from './require-permission';

function serveMenu(permissions: string[]) {
  server.use(http.get(apiUrl('/auth/menu'), () => ok({ menus: [], permissions })));
}

describe('RequirePermission', () => {
  it('should ask for a project, not show a 403, when a page is opened before any project is chosen', async () => {
    setToken('tok');
    serveMenu(['project.list']);
    renderRoute(
      <RequirePermission codes={['home.view']}>
        <p>首页</p>
      </RequirePermission>,
      { path: '/home', at: '/home' },
    );
    expect(await screen.findByText('尚未选择项目')).toBeInTheDocument();
    expect(screen.queryByText('首页')).not.toBeInTheDocument();
    expect(screen.queryByText('无权限访问该页面')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /选择项目/ })).toBeInTheDocument();
  });

  it('should show the 403 result instead of the page when the user lacks every listed code', async () => {
    setToken('tok');
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p-1', projectName: '心衰', subProject: false });
    server.use(http.get(apiUrl('/web-project/current'), () => ok({ id: 'p-1', projectName: '心衰' })));
    serveMenu(['home.view', 'patient.list']);
    renderRoute(
      <RequirePermission codes={['center.manage']}>
        <p>分中心列表</p>
      </RequirePermission>,
      { path: '/manage/sub-center', at: '/manage/sub-center' },
    );
    expect(await screen.findByText('无权限访问该页面')).toBeInTheDocument();
    expect(screen.queryByText('分中心列表')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /返回项目列表/ })).toBeInTheDocument();
  });

  it('should render the page when the menu answer grants one of the codes', async () => {
    setToken('tok');
    serveMenu(['center.manage']);
    renderRoute(
      <RequirePermission codes={['center.manage']}>
        <p>分中心列表</p>
      </RequirePermission>,
      { path: '/manage/sub-center', at: '/manage/sub-center' },
    );
    expect(await screen.findByText('分中心列表')).toBeInTheDocument();
    expect(screen.queryByText('无权限访问该页面')).not.toBeInTheDocument();
  });

  it('should render the page and store the codes when only the current project menu grants them', async () => {
    setToken('tok');
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p-1', projectName: '心衰', subProject: false });
    server.use(
      http.get(apiUrl('/web-project/current'), () => ok({ id: 'p-1', projectName: '心衰' })),
      http.get(apiUrl('/auth/menu'), ({ request }) =>
        new URL(request.url).searchParams.get('groupCode') === 'project'
          ? ok({ menus: [], permissions: ['center.manage'] })
          : ok({ menus: [], permissions: ['project.list'] }),
      ),
    );
    renderRoute(
      <RequirePermission codes={['center.manage']}>
        <p>分中心列表</p>
      </RequirePermission>,
      { path: '/manage/sub-center', at: '/manage/sub-center' },
    );
    expect(await screen.findByText('分中心列表')).toBeInTheDocument();
    expect(useMenuStore.getState().permissions).toEqual(expect.arrayContaining(['center.manage', 'project.list']));
  });

  it('should let a page opened for another project switch first, and judge the stored project otherwise', async () => {
    setToken('tok');
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'T2', projectId: 'p-2', projectName: '糖尿病', subProject: false });
    serveMenu(['home.view']);
    server.use(http.get(apiUrl('/web-project/current'), () => ok({ id: 'p-2', projectName: '糖尿病' })));
    const page = (at: string) =>
      renderRoute(
        <RequirePermission codes={['database.config']}>
          <p>数据库设计</p>
        </RequirePermission>,
        { path: '/manage/database', at },
      );
    const opened = page('/manage/database?projectId=p-1&projectName=%E5%BF%83%E8%A1%B0');
    expect(await screen.findByText('数据库设计')).toBeInTheDocument();
    opened.unmount();
    page('/manage/database?projectId=p-2');
    expect(await screen.findByText('无权限访问该页面')).toBeInTheDocument();
  });

  it('should make the stored project current before judging its permissions (a page opened by its address)', async () => {
    setToken('tok');
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p-1', projectName: '心衰', subProject: false });
    let current: string | null = null; // a new sign-in: the session has no current project
    server.use(
      http.get(apiUrl('/web-project/current'), () =>
        current ? ok({ id: current, projectName: '心衰' }) : HttpResponse.json(notChosen, { status: 404 }),
      ),
      http.get(apiUrl('/web-project/change'), ({ request }) => {
        current = new URL(request.url).searchParams.get('projectId');
        return ok({ id: current, projectName: '心衰' });
      }),
      http.get(apiUrl('/auth/menu'), ({ request }) =>
        new URL(request.url).searchParams.get('groupCode') === 'project'
          ? ok({ menus: [], permissions: current === 'p-1' ? ['patient.list'] : [] })
          : ok({ menus: [], permissions: ['project.list'] }),
      ),
    );
    renderRoute(
      <RequirePermission codes={['patient.list']}>
        <p>患者列表</p>
      </RequirePermission>,
      { path: '/patient/list', at: '/patient/list' },
    );
    expect(await screen.findByText('患者列表')).toBeInTheDocument();
    expect(current).toBe('p-1');
  });
});
