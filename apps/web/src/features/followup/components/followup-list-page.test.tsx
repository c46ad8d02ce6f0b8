import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TaskFilter, TaskPageRequest } from '@registry/shared/contracts/followup';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { chooseOption } from '../../../test/select';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { clearWorklistKeyword } from '../hooks/use-keyword';
import {
  buildCenter,
  buildCounts,
  buildDoctor,
  buildPlan,
  buildTask,
  DOCTOR_ID,
  PLAN_ID,
  PROJECT,
  TASK_1,
  TASK_2,
  VISIT_2,
} from '../test-factories';
import { FollowupListPage } from './followup-list-page';

type Served = { pages: TaskPageRequest[]; counts: TaskFilter[]; assigns: unknown[]; exports: unknown[] };

const ROWS = [
  buildTask({ attempts: 2, lastOutcome: 'no_answer', ownerId: DOCTOR_ID, ownerName: '李医生' }),
  buildTask({ id: TASK_2, patientNo: 'C01-0002', patientName: '李四', phone: null }),
];

function serve({ permissions = ['followup.list', 'followup.edit'] }: { permissions?: string[] } = {}): Served {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], permissions);
  useProjectStore.getState().selectProject(PROJECT);
  const served: Served = { pages: [], counts: [], assigns: [], exports: [] };
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/web-project/current-project-tenant-doctors'), () => ok([buildDoctor()])),
    http.get(apiUrl('/project-center/list'), () =>
      ok([buildCenter(), buildCenter({ id: 'c-2', code: 'C02', name: '示例第二人民医院', isDefault: false })]),
    ),
    http.get(apiUrl('/followup/plan/list'), () => ok([buildPlan()])),
    http.post(apiUrl('/followup/task/counts'), async ({ request }) => {
      served.counts.push((await request.json()) as TaskFilter);
      return ok(buildCounts());
    }),
    http.post(apiUrl('/followup/task/page'), async ({ request }) => {
      const body = (await request.json()) as TaskPageRequest;
      served.pages.push(body);
      const records = body.state === 'lost' ? [] : ROWS.map((r) => ({ ...r, state: body.state ?? r.state }));
      return ok({ records, total: records.length, current: body.current ?? 1, size: body.size ?? 20 });
    }),
    http.post(apiUrl('/followup/task/export'), async ({ request }) => {
      served.exports.push(await request.json());
      return new HttpResponse(new Uint8Array([80, 75, 3, 4]), {
        headers: {
          'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent('随访列表-2026-11-24.xlsx')}`,
        },
      });
    }),
    http.post(apiUrl('/followup/task/assign'), async ({ request }) => {
      served.assigns.push(await request.json());
      return ok({ count: 2 });
    }),
  );
  return served;
}

function renderList(at = '/followup/list') {
  const user = userEvent.setup({ delay: null });
  const view = renderRoute(<FollowupListPage />, { path: '/followup/list', at });
  return { user, ...view };
}

const last = <T,>(list: T[]) => list[list.length - 1];
/** A tab by its text (label and count). */
const tab = (text: RegExp) => {
  const found = screen.getAllByRole('tab').find((t) => text.test(t.textContent ?? ''));
  if (!found) throw new Error(`没有标签 ${String(text)}`);
  return found;
};

afterEach(() => clearWorklistKeyword());

describe('FollowupListPage', () => {
  it('should say 加载中 rather than 今天没有待随访的患者 or zero counts while the list loads', async () => {
    serve();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(apiUrl('/followup/task/counts'), async () => {
        await gate;
        return ok({ ...buildCounts(), due: 0, dueToday: 0 });
      }),
      http.post(apiUrl('/followup/task/page'), async () => {
        await gate;
        return ok({ records: [], total: 0, current: 1, size: 20 });
      }),
    );
    renderList();
    expect(await screen.findByText('加载中…', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByText('今天没有待随访的患者')).not.toBeInTheDocument();
    expect(tab(/^待随访/).textContent).toBe('待随访');
    release();
    expect(await screen.findByText('今天没有待随访的患者')).toBeInTheDocument();
    await waitFor(() => expect(tab(/^待随访/).textContent).toBe('待随访0'));
  });

  it('should open on 待随访 with the counts on the tabs and the due-today hint', async () => {
    const served = serve();
    const { user, router } = renderList();
    expect(await screen.findByText('C01-0001', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(last(served.pages)).toEqual({ current: 1, size: 20, state: 'due' });
    expect(last(served.counts)).toEqual({});
    await waitFor(() => expect(tab(/^待随访2$/)).toHaveAttribute('aria-selected', 'true'));
    expect(tab(/^已超窗1$/)).toBeInTheDocument();
    expect(tab(/^未到期5$/)).toBeInTheDocument();
    expect(tab(/^已完成12$/)).toBeInTheDocument();
    expect(screen.getByTestId('due-today')).toHaveTextContent('今日到期 1');
    // The row: attempts with the last outcome, the owner, the window hint, unassigned shown as such.
    const row = screen.getByText('C01-0001').closest('tr') as HTMLElement;
    expect(within(row).getByText('2次')).toBeInTheDocument();
    expect(within(row).getByText('无人接听')).toBeInTheDocument();
    expect(within(row).getByText('李医生')).toBeInTheDocument();
    expect(within(row).getByText('还剩3天')).toBeInTheDocument();
    expect(within(screen.getByText('C01-0002').closest('tr') as HTMLElement).getByText('未分配')).toBeInTheDocument();

    await user.click(tab(/已超窗/));
    await waitFor(() => expect(last(served.pages)).toEqual({ current: 1, size: 20, state: 'overdue' }));
    expect(router.state.location.search).toBe('?tab=overdue');

    await user.click(tab(/失访/));
    expect(await screen.findByText('没有失访的随访任务')).toBeInTheDocument();
  });

  it.each([
    ['待随访', '/followup/list?tab=due', { state: 'due' }, /^待随访2$/],
    [
      '今日到期',
      '/followup/list?tab=due&from=2026-11-24&to=2026-11-24',
      { state: 'due', dueFrom: '2026-11-24', dueTo: '2026-11-24' },
      /^待随访2$/,
    ],
    ['已超窗', '/followup/list?tab=overdue', { state: 'overdue' }, /^已超窗1$/],
    ['我的待随访', '/followup/list?tab=due&owner=me', { state: 'due', owner: 'me' }, /^待随访2$/],
    [
      'an older link with state=',
      '/followup/list?state=overdue&owner=me',
      { state: 'overdue', owner: 'me' },
      /^已超窗1$/,
    ],
  ] as const)('should open the home page card %s on its tab with its filter', async (_, at, request, selected) => {
    const served = serve();
    renderList(at);
    await waitFor(() => expect(last(served.pages)).toEqual({ current: 1, size: 20, ...request }));
    const { state: _state, ...filter } = request;
    expect(last(served.counts)).toEqual(filter);
    await waitFor(() => expect(tab(selected)).toHaveAttribute('aria-selected', 'true'));
  });

  it('should send the filters to the page and the counts and keep the keyword out of the address', async () => {
    const served = serve();
    const { user, router } = renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    await chooseOption(user, '负责人', '我的');
    await chooseOption(user, '中心', /C02/);
    await chooseOption(user, '随访计划', '心衰出院后随访');
    await chooseOption(user, '访视', '出院后3个月');
    await user.type(screen.getByRole('textbox', { name: '关键字' }), '张三');
    await user.click(screen.getByRole('button', { name: /查\s*询/ }));

    const filter = { owner: 'me', centerId: 'c-2', planId: PLAN_ID, visitId: VISIT_2, keyword: '张三' };
    await waitFor(() => expect(last(served.pages)).toEqual({ current: 1, size: 20, state: 'due', ...filter }));
    expect(last(served.counts)).toEqual(filter);
    const search = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(search)).toEqual({ owner: 'me', center: 'c-2', plan: PLAN_ID, visit: VISIT_2 });
    expect(router.state.location.search).not.toContain(encodeURIComponent('张三'));
  });

  it('should show the due dates of the address and filter by dates picked in the calendar', async () => {
    const served = serve();
    const { user, router } = renderList('/followup/list?tab=due&from=2026-11-24&to=2026-11-24');
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(screen.getByRole('textbox', { name: '应随访日期' })).toHaveValue('2026-11-24 → 2026-11-24');
    await user.click(screen.getByRole('textbox', { name: '应随访日期' }));
    await waitFor(() => expect(document.querySelector('.ant-picker-dropdown td[title="2026-11-10"]')).not.toBeNull(), {
      timeout: 20_000,
    });
    expect(document.querySelector('.ant-picker input')).toHaveValue('2026-11-24');
    await user.click(document.querySelector('.ant-picker-dropdown td[title="2026-11-10"]') as HTMLElement);
    await user.click(document.querySelector('.ant-picker-dropdown td[title="2026-11-20"]') as HTMLElement);
    await user.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(last(served.pages)).toEqual({
        current: 1,
        size: 20,
        state: 'due',
        dueFrom: '2026-11-10',
        dueTo: '2026-11-20',
      }),
    );
    expect(router.state.location.search).toContain('from=2026-11-10&to=2026-11-20');
  });

  it('should export the filtered worklist of the current tab under the server name', async () => {
    const served = serve();
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    try {
      const { user } = renderList('/followup/list?tab=overdue&owner=none');
      await screen.findByText('C01-0001', {}, { timeout: 20_000 });
      await user.click(screen.getByRole('button', { name: /导\s*出/ }));
      await waitFor(() => expect(saved).toEqual(['随访列表-2026-11-24.xlsx']));
      expect(served.exports).toEqual([{ owner: 'none', state: 'overdue' }]);
    } finally {
      click.mockRestore();
    }
  });

  it('should open a task from its row', async () => {
    serve();
    const { user } = renderList();
    await user.click(await screen.findByText('C01-0002', {}, { timeout: 20_000 }));
    expect(await screen.findByTestId('location')).toHaveTextContent(`/followup/edit?id=${TASK_2}`);
  });

  it('should assign the selected tasks to a doctor', async () => {
    const served = serve();
    const { user } = renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    const boxes = screen.getAllByRole('checkbox');
    // [0] is the header's "select all".
    fireEvent.click(boxes[1] as HTMLElement);
    fireEvent.click(boxes[2] as HTMLElement);
    expect(await screen.findByText('已选择 2 条')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /分配给/ }));
    const dialog = await screen.findByRole('dialog');
    await chooseOption(user, '分配负责人', /李医生/);
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(served.assigns).toEqual([{ taskIds: [TASK_1, TASK_2], ownerId: DOCTOR_ID }]));
    await waitFor(() => expect(screen.queryByText('已选择 2 条')).not.toBeInTheDocument());
  });

  it('should unassign the selected tasks', async () => {
    const served = serve();
    const { user } = renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    fireEvent.click(screen.getAllByRole('checkbox')[1] as HTMLElement);
    await user.click(await screen.findByRole('button', { name: /分配给/ }));
    const dialog = await screen.findByRole('dialog');
    await chooseOption(user, '分配负责人', /取消分配/);
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(served.assigns).toEqual([{ taskIds: [TASK_1], ownerId: null }]));
  });

  it('should offer no selection nor assignment without followup.edit', async () => {
    serve({ permissions: ['followup.list'] });
    renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /分配给/ })).not.toBeInTheDocument();
  });
});
