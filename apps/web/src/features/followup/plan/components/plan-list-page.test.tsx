import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../../../test/server';
import { apiUrl, http, ok } from '../../../../test/api';
import { renderRoute } from '../../../../test/router';
import { buildPlan, PLAN_ID, servePlanPages } from '../test-factories';
import { FollowupPlanListPage } from './plan-list-page';

const SLOW = { timeout: 20_000 };
const PATIENT_ID = '00000000-0000-4000-8000-0000000000b1';

/** The open dialog (modal or drawer) that shows `text` (antd's test ids leave dialogs without a usable name). */
async function dialogWith(text: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen
      .getAllByRole('dialog')
      .find((d) => within(d).queryAllByText((_, el) => el?.textContent?.includes(text) ?? false).length > 0);
    expect(found).toBeDefined();
  });
  return found as HTMLElement;
}

function renderList() {
  return renderRoute(<FollowupPlanListPage />, { path: '/manage/followup', at: '/manage/followup' });
}

describe('FollowupPlanListPage', () => {
  it('should list plans and show what 启用 did', async () => {
    servePlanPages();
    let active = false;
    const activated: unknown[] = [];
    server.use(
      http.get(apiUrl('/followup/plan/list'), () =>
        ok([
          buildPlan(
            active
              ? { status: 'active', patientCount: 12, openTaskCount: 30, overdueTaskCount: 2 }
              : { status: 'draft' },
          ),
        ]),
      ),
      http.post(apiUrl('/followup/plan/activate'), async ({ request }) => {
        activated.push(await request.json());
        active = true;
        return ok({ assigned: 12, tasksCreated: 30, waitingForAnchor: 1, stopped: 0 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderList();
    expect(await screen.findByText('心衰出院后随访', {}, SLOW)).toBeInTheDocument();
    const row = screen.getByText('心衰出院后随访').closest('tr') as HTMLElement;
    expect(within(row).getByText('相对')).toBeInTheDocument();
    expect(within(row).getByText('入组日期')).toBeInTheDocument();
    expect(within(row).getByText('草稿')).toBeInTheDocument();
    expect(within(row).getByText('按规则自动分配')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: '启用 心衰出院后随访' }));
    let okButton: Element | null = null;
    await waitFor(() => {
      okButton = document.querySelector('.ant-popconfirm-buttons .ant-btn-primary');
      expect(okButton).not.toBeNull();
    });
    await user.click(okButton as unknown as Element);
    await waitFor(() => expect(activated).toEqual([{ id: PLAN_ID }]));
    expect(
      await screen.findByText(
        '已分配 12 名患者，生成 30 条随访任务，1 名患者缺少基准日期（录入基准日期后自动生成其随访任务）。',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('启用中')).toBeInTheDocument();
  });

  it('should explain plans and offer both create buttons when there is none', async () => {
    servePlanPages();
    server.use(http.get(apiUrl('/followup/plan/list'), () => ok([])));
    const user = userEvent.setup({ delay: null });
    renderList();
    expect(await screen.findByText('还没有随访计划', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /新建固定随访计划/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /新建相对随访计划/ }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/manage/followup/config');
  });

  it('should stop a plan and cancel its open tasks when the box is ticked', async () => {
    servePlanPages();
    const stopped: unknown[] = [];
    server.use(
      http.get(apiUrl('/followup/plan/list'), () => ok([buildPlan({ status: 'active', openTaskCount: 8 })])),
      http.post(apiUrl('/followup/plan/stop'), async ({ request }) => {
        stopped.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderList();
    await user.click(await screen.findByRole('button', { name: '停用 心衰出院后随访' }, SLOW));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: '同时取消未完成的随访任务' }));
    await user.click(within(dialog).getByRole('button', { name: /停\s*用/ }));
    await waitFor(() => expect(stopped).toEqual([{ id: PLAN_ID, cancelOpenTasks: true }]));
  });

  it('should add a searched patient to the plan and remove one with a reason', async () => {
    servePlanPages();
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const searched: unknown[] = [];
    server.use(
      http.get(apiUrl('/followup/plan/list'), () => ok([buildPlan({ status: 'active', assignMode: 'manual' })])),
      http.post(apiUrl('/followup/assignment/page'), () =>
        ok({
          records: [
            {
              id: 'as-1',
              planId: PLAN_ID,
              patientId: PATIENT_ID,
              patientNo: 'P0001',
              patientName: '王*',
              centerName: '示例第一人民医院',
              source: 'manual',
              status: 'active',
              anchorDate: '2026-10-01',
              tasksDone: 1,
              tasksTotal: 4,
              createdAt: '2026-10-01T00:00:00.000Z',
            },
          ],
          total: 1,
          current: 1,
          size: 20,
        }),
      ),
      http.post(apiUrl('/patient-info/page'), async ({ request }) => {
        searched.push(await request.json());
        return ok({
          records: [
            {
              id: '00000000-0000-4000-8000-0000000000b2',
              patientNo: 'P0002',
              name: '李*',
              gender: '1',
              birthDate: null,
              hospitalNo: 'H002',
              idNumber: null,
              phone: null,
              masked: true,
              centerId: 'c-1',
              centerCode: 'C01',
              centerName: '示例第一人民医院',
              subProjectId: null,
              enrolDate: '2026-11-01',
              status: 'active',
              rowVersion: 1,
              createdAt: '2026-11-01T00:00:00.000Z',
              updatedAt: '2026-11-01T00:00:00.000Z',
              fields: {},
            },
          ],
          total: 1,
          current: 1,
          size: 10,
          totalExact: true,
          nextCursor: null,
        });
      }),
      http.post(apiUrl('/followup/assignment/add'), async ({ request }) => {
        added.push(await request.json());
        return ok({ assigned: 1, tasksCreated: 4, waitingForAnchor: 0, skipped: 0 });
      }),
      http.post(apiUrl('/followup/assignment/remove'), async ({ request }) => {
        removed.push(await request.json());
        return ok({ count: 1 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderList();
    await user.click(await screen.findByRole('button', { name: '患者 心衰出院后随访' }, SLOW));
    expect(await screen.findByText('P0001')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /添加患者/ }));
    const dialog = await dialogWith('已在计划中的患者会被跳过；已移出的患者将恢复随访。');
    fireEvent.change(within(dialog).getByLabelText('搜索患者'), { target: { value: 'P0002' } });
    fireEvent.keyDown(within(dialog).getByLabelText('搜索患者'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(searched).toContainEqual({ current: 1, size: 10, keyword: 'P0002' }));
    const patientRow = (await within(dialog).findByText('P0002')).closest('tr') as HTMLElement;
    await user.click(within(patientRow).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: '添加 1 名患者' }));
    await waitFor(() =>
      expect(added).toEqual([{ planId: PLAN_ID, patientIds: ['00000000-0000-4000-8000-0000000000b2'] }]),
    );

    await user.click(screen.getByRole('button', { name: '移出 P0001' }));
    const removeDialog = await dialogWith('移出患者 P0001（王*）');
    fireEvent.change(within(removeDialog).getByLabelText('移出原因'), { target: { value: '转院' } });
    await user.click(within(removeDialog).getByRole('button', { name: /移\s*出/ }));
    await waitFor(() => expect(removed).toEqual([{ planId: PLAN_ID, patientIds: [PATIENT_ID], reason: '转院' }]));
  });
});
