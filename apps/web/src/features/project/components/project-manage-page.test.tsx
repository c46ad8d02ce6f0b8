import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { buildProject, buildUserInfo } from '../../../test/factories';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { ProjectManagePage } from './project-manage-page';

const existing = buildProject({ id: 'p-1', projectCode: 'HF-REG', projectName: '心力衰竭注册登记研究' });

function serveBasics(projects = [existing]) {
  server.use(
    http.get(apiUrl('/sys-user/user-info'), () => ok(buildUserInfo())),
    http.post(apiUrl('/web-project/list/owned'), () =>
      ok({ departmentName: '心血管内科', hospitalName: '示例第一人民医院', projectVOs: projects }),
    ),
    http.post(apiUrl('/web-project/join-request/page'), () => ok({ records: [], total: 0, current: 1, size: 1 })),
  );
}

describe('ProjectManagePage', () => {
  it('should create a project with the entered fields when 新建项目 is submitted', async () => {
    setToken('tok');
    useMenuStore.getState().setPersonMenu([], ['project.create', 'project.manage']);
    const created = buildProject({ id: 'p-9', projectCode: 'DM-2026', projectName: '2型糖尿病队列' });
    let projects = [existing];
    serveBasics();
    server.use(
      http.post(apiUrl('/web-project/list/owned'), () =>
        ok({ departmentName: '心血管内科', hospitalName: '示例第一人民医院', projectVOs: projects }),
      ),
    );
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/web-project'), async ({ request }) => {
        bodies.push(await request.json());
        projects = [existing, created];
        return ok(created);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<ProjectManagePage />, { path: '/person/project-manage', at: '/person/project-manage' });
    await screen.findByText('心力衰竭注册登记研究');
    await user.click(screen.getByRole('button', { name: /新建项目/ }));
    const dialog = await screen.findByRole('dialog', { name: '新建项目' });
    fireEvent.change(within(dialog).getByLabelText('项目名称'), { target: { value: '2型糖尿病队列' } });
    fireEvent.change(within(dialog).getByLabelText('项目编号'), { target: { value: 'DM-2026' } });
    fireEvent.change(within(dialog).getByLabelText('疾病领域'), { target: { value: '内分泌' } });
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      code: 'DM-2026',
      name: '2型糖尿病队列',
      diseaseArea: '内分泌',
      description: null,
      status: 'draft',
      parentId: null,
    });
    expect(await screen.findByText('2型糖尿病队列')).toBeInTheDocument();
  });

  it('should mark the code field with the server message when the code is taken', async () => {
    setToken('tok');
    useMenuStore.getState().setPersonMenu([], ['project.create']);
    serveBasics();
    server.use(
      http.post(apiUrl('/web-project'), () =>
        HttpResponse.json(
          { status: 400, message: '项目编码已存在', data: null, issues: [{ path: 'code', message: '项目编码已存在' }] },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<ProjectManagePage />, { path: '/person/project-manage', at: '/person/project-manage' });
    await user.click(await screen.findByRole('button', { name: /新建项目/ }));
    const dialog = await screen.findByRole('dialog', { name: '新建项目' });
    fireEvent.change(within(dialog).getByLabelText('项目名称'), { target: { value: '重复项目' } });
    fireEvent.change(within(dialog).getByLabelText('项目编号'), { target: { value: 'HF-REG' } });
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('项目编码已存在')).toBeInTheDocument();
  });

  it('should hide 新建项目 when the user lacks project.create', async () => {
    setToken('tok');
    useMenuStore.getState().setPersonMenu([], ['project.manage']);
    serveBasics();
    renderRoute(<ProjectManagePage />, { path: '/person/project-manage', at: '/person/project-manage' });
    await screen.findByText('心力衰竭注册登记研究');
    expect(screen.queryByRole('button', { name: /新建项目/ })).not.toBeInTheDocument();
  });

  it('should archive a project after the confirmation when 归档 is chosen', async () => {
    setToken('tok');
    serveBasics();
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/web-project/status'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<ProjectManagePage />, { path: '/person/project-manage', at: '/person/project-manage' });
    await user.click(await screen.findByRole('button', { name: '归档 心力衰竭注册登记研究' }));
    await user.click(await screen.findByRole('button', { name: /^归\s*档$/ }));
    await waitFor(() => expect(bodies).toEqual([{ id: 'p-1', status: 'archived' }]));
  });
});
