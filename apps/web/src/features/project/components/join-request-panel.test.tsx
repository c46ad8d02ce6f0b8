import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JoinRequestVO } from '@registry/shared/contracts/join-request';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { chooseOption } from '../../../test/select';
import { setToken } from '../../../lib/token';
import { useProjectStore } from '../../../lib/stores/project-store';
import { JoinRequestPanel } from './join-request-panel';

const pending: JoinRequestVO = {
  id: 'jr-1',
  projectId: 'p-1',
  projectCode: 'HF-REG',
  projectName: '心力衰竭注册登记研究',
  userId: 'u-2',
  username: 'liuna',
  userName: '刘娜',
  departmentName: '心血管内科',
  message: '负责本院病例录入',
  status: 'pending',
  reason: null,
  roleName: null,
  createdAt: '2026-11-20T02:00:00.000Z',
  decidedAt: null,
  decidedByName: null,
};

const approvalOptions = (allCenters: boolean) => ({
  roles: [
    { id: 'r-owner', name: '项目负责人' },
    { id: 'r-entry', name: '数据录入员' },
  ],
  centers: allCenters
    ? [
        { id: 'c-1', code: 'c-1', name: '华东分中心' },
        { id: 'c-2', code: 'c-2', name: '华北分中心' },
      ]
    : [{ id: 'c-2', code: 'c-2', name: '华北分中心' }],
  allCenters,
});

function serveRequests(allCenters = true) {
  server.use(
    http.post(apiUrl('/web-project/join-request/page'), () =>
      ok({ records: [pending], total: 1, current: 1, size: 10 }),
    ),
    http.get(apiUrl('/web-project/join-request/options'), ({ request }) =>
      new URL(request.url).searchParams.get('id') === 'jr-1' ? ok(approvalOptions(allCenters)) : ok(null),
    ),
  );
}

describe('JoinRequestPanel', () => {
  it('should approve with the chosen role and center when 同意 is confirmed', async () => {
    setToken('tok');
    serveRequests();
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/web-project/join-request/approve'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<JoinRequestPanel />, { path: '/person/project-manage', at: '/person/project-manage' });
    await user.click(await screen.findByRole('button', { name: '同意 刘娜' }));
    const dialog = await screen.findByRole('dialog', { name: '同意加入申请' });
    await chooseOption(user, '角色', '数据录入员');
    await chooseOption(user, '中心', '华东分中心（c-1）');
    await user.click(within(dialog).getByRole('button', { name: /同\s*意/ }));
    await waitFor(() => expect(bodies).toEqual([{ id: 'jr-1', roleId: 'r-entry', centerId: 'c-1' }]));
    // Approving does not change the user's current project.
    expect(useProjectStore.getState().projectId).not.toBe('p-1');
  });

  it('should show only the success message after 同意, without fetching the decided request again', async () => {
    setToken('tok');
    let decided = false;
    let optionCalls = 0;
    server.use(
      http.post(apiUrl('/web-project/join-request/page'), () =>
        ok({ records: decided ? [] : [pending], total: decided ? 0 : 1, current: 1, size: 10 }),
      ),
      http.get(apiUrl('/web-project/join-request/options'), () => {
        optionCalls += 1;
        return decided
          ? HttpResponse.json({ status: 409, message: '该申请已处理', data: null, requestId: 'r' }, { status: 409 })
          : ok(approvalOptions(true));
      }),
      http.post(apiUrl('/web-project/join-request/approve'), () => {
        if (decided)
          return HttpResponse.json(
            { status: 409, message: '该申请已处理', data: null, requestId: 'r' },
            { status: 409 },
          );
        decided = true;
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<JoinRequestPanel />, { path: '/person/project-manage', at: '/person/project-manage' });
    await user.click(await screen.findByRole('button', { name: '同意 刘娜' }));
    const dialog = await screen.findByRole('dialog', { name: '同意加入申请' });
    await chooseOption(user, '角色', '数据录入员');
    await user.click(within(dialog).getByRole('button', { name: /同\s*意/ }));
    expect(await screen.findByText('操作成功')).toBeInTheDocument();
    expect(await screen.findByText('暂无待审核的加入申请')).toBeInTheDocument();
    expect(screen.queryByText('该申请已处理')).not.toBeInTheDocument();
    expect(optionCalls).toBe(1);
  });

  it("should preselect the center lead's own center and not offer 全部中心 when the lead may not span centers", async () => {
    setToken('tok');
    serveRequests(false);
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/web-project/join-request/approve'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<JoinRequestPanel />, { path: '/person/project-manage', at: '/person/project-manage' });
    await user.click(await screen.findByRole('button', { name: '同意 刘娜' }));
    const dialog = await screen.findByRole('dialog', { name: '同意加入申请' });
    await chooseOption(user, '角色', '数据录入员');
    expect(within(dialog).queryByText('全部中心')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /同\s*意/ }));
    await waitFor(() => expect(bodies).toEqual([{ id: 'jr-1', roleId: 'r-entry', centerId: 'c-2' }]));
  });

  it('should send the reason when a request is refused', async () => {
    setToken('tok');
    serveRequests();
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/web-project/join-request/refuse'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<JoinRequestPanel />, { path: '/person/project-manage', at: '/person/project-manage' });
    await user.click(await screen.findByRole('button', { name: '拒绝 刘娜' }));
    const dialog = await screen.findByRole('dialog', { name: '拒绝加入申请' });
    await user.click(within(dialog).getByRole('button', { name: /拒\s*绝/ }));
    expect(await within(dialog).findByText('请输入拒绝原因')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('拒绝原因'), { target: { value: '非本研究科室' } });
    await user.click(within(dialog).getByRole('button', { name: /拒\s*绝/ }));
    await waitFor(() => expect(bodies).toEqual([{ id: 'jr-1', reason: '非本研究科室' }]));
  });
});
