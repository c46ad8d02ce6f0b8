import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { buildProject } from '../../../test/factories';
import { setToken } from '../../../lib/token';
import { ProjectListPage } from './project-list-page';

const parent = buildProject({ id: 'p-1', projectCode: 'HF-REG', projectName: '心力衰竭注册登记研究' });
const child = buildProject({
  id: 'p-2',
  projectCode: 'HF-SUB',
  projectName: '射血分数保留型心衰亚组',
  subProject: true,
  parentId: 'p-1',
  roleName: '数据录入员',
});
const orphan = buildProject({
  id: 'p-3',
  projectCode: 'DM-SUB',
  projectName: '糖尿病肾病亚组',
  subProject: true,
  parentId: 'p-x',
  status: 'locked',
});

function serveProjects() {
  const bodies: unknown[] = [];
  server.use(
    http.post(apiUrl('/web-project/list'), async ({ request }) => {
      const body = (await request.json()) as { keyword?: string };
      bodies.push(body);
      const all = [parent, child, orphan];
      return ok({
        departmentName: '心血管内科',
        hospitalName: '示例第一人民医院',
        projectVOs: body.keyword ? all.filter((p) => p.projectName.includes(body.keyword ?? '')) : all,
      });
    }),
    http.get(apiUrl('/web-project/count'), () => ok({ total: 3, owned: 2, joined: 1 })),
  );
  return bodies;
}

describe('ProjectListPage', () => {
  it('should ask for the owned scope when 我创建的 is chosen', async () => {
    setToken('tok');
    serveProjects();
    let scoped = false;
    server.use(
      http.post(apiUrl('/web-project/list/owned'), () => {
        scoped = true;
        return ok({ departmentName: '心血管内科', hospitalName: '示例第一人民医院', projectVOs: [orphan] });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<ProjectListPage />, { path: '/person/project', at: '/person/project' });
    await screen.findByText('心力衰竭注册登记研究');
    await user.click(screen.getByText('我创建的'));
    expect(await screen.findByText('糖尿病肾病亚组')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('心力衰竭注册登记研究')).not.toBeInTheDocument());
    expect(scoped).toBe(true);
  });

  it('should nest sub-projects under their parent and show the counts when the list loads', async () => {
    setToken('tok');
    serveProjects();
    renderRoute(<ProjectListPage />, { path: '/person/project', at: '/person/project' });
    const parentCard = (await screen.findByText('心力衰竭注册登记研究')).closest('.ant-card') as HTMLElement;
    expect(within(parentCard).getByText('射血分数保留型心衰亚组')).toBeInTheDocument();
    expect(within(parentCard).getByText('HF-REG')).toBeInTheDocument();
    const orphanCard = screen.getByText('糖尿病肾病亚组').closest('.ant-card') as HTMLElement;
    expect(within(orphanCard).getByText('子项目')).toBeInTheDocument();
    expect(within(orphanCard).getByText('已锁定')).toBeInTheDocument();
    expect(screen.getByText('我参与的项目')).toBeInTheDocument();
    expect(localStorage.getItem('hospitalName')).toBe('示例第一人民医院');
    expect(localStorage.getItem('departmentName')).toBe('心血管内科');
  });

  it('should show only matching projects when a keyword is searched', async () => {
    setToken('tok');
    const bodies = serveProjects();
    const user = userEvent.setup({ delay: null });
    renderRoute(<ProjectListPage />, { path: '/person/project', at: '/person/project' });
    await screen.findByText('心力衰竭注册登记研究');
    await user.type(screen.getByRole('searchbox', { name: '搜索项目' }), '糖尿病{Enter}');
    expect(await screen.findByText('糖尿病肾病亚组')).toBeInTheDocument();
    expect(screen.queryByText('心力衰竭注册登记研究')).not.toBeInTheDocument();
    expect(bodies).toContainEqual({ keyword: '糖尿病' });
  });

  it('should make the project current, store the selection and open /home when entered', async () => {
    setToken('tok');
    serveProjects();
    let changed: string | null = null;
    server.use(
      http.get(apiUrl('/web-project/change'), ({ request }) => {
        changed = new URL(request.url).searchParams.get('projectId');
        return ok({ id: 'p-2', projectName: '射血分数保留型心衰亚组', projectCode: 'HF-SUB', subProject: true });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<ProjectListPage />, { path: '/person/project', at: '/person/project' });
    await user.click(await screen.findByRole('button', { name: '进入项目 射血分数保留型心衰亚组' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/home');
    expect(changed).toBe('p-2');
    expect(localStorage.getItem('projectId')).toBe('p-2');
    expect(localStorage.getItem('projectCode')).toBe('HF-SUB');
    expect(localStorage.getItem('projectName')).toBe('射血分数保留型心衰亚组');
    expect(localStorage.getItem('subProject')).toBe('true');
  });
});
