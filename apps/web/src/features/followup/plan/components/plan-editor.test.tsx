import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../../test/api';
import { renderRoute } from '../../../../test/router';
import { buildPlan, buildVisit, PLAN_ID, servePlanPages } from '../test-factories';
import { FixedPlanPage, RelativePlanPage } from './plan-editor-pages';

const SLOW = { timeout: 20_000 };

function renderRelative(at = '/manage/followup/config') {
  return renderRoute(<RelativePlanPage />, { path: '/manage/followup/config', at });
}

function serveDetail(plan = buildPlan()) {
  server.use(http.get(apiUrl('/followup/plan/detail'), () => ok(plan)));
}

function captureUpdates() {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.put(apiUrl('/followup/plan'), async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return ok(buildPlan());
    }),
  );
  return bodies;
}

describe('relative plan editor', () => {
  it('should send a draft with three visits from 每3个月一次，共3次', async () => {
    servePlanPages();
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/followup/plan'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(buildPlan());
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRelative();
    fireEvent.change(await screen.findByLabelText('计划名称', {}, SLOW), { target: { value: '出院后随访' } });
    fireEvent.change(screen.getByLabelText('快速添加次数'), { target: { value: '3' } });
    await user.click(screen.getByRole('button', { name: '生成访视' }));
    expect(await screen.findByDisplayValue('9个月随访')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /保存为草稿/ }));
    const visit = (offset: number) => ({
      name: `${offset}个月随访`,
      offset,
      offsetUnit: 'month',
      fixedDate: null,
      windowBefore: 7,
      windowAfter: 7,
      formKeys: ['followup_visit'],
      contactMethod: 'phone',
    });
    await waitFor(() =>
      expect(bodies).toEqual([
        {
          name: '出院后随访',
          description: null,
          kind: 'relative',
          anchor: { type: 'enrol' },
          period: null,
          visits: [visit(3), visit(6), visit(9)],
          assignMode: 'manual',
          rule: null,
          remindDaysBefore: 3,
          defaultOwnerId: null,
        },
      ]),
    );
    expect(await screen.findByTestId('location')).toHaveTextContent('/manage/followup');
  });

  it('should ask whether to re-schedule when a plan in use changes its schedule, and send the answer', async () => {
    servePlanPages();
    serveDetail(buildPlan({ status: 'active', patientCount: 5 }));
    const bodies = captureUpdates();
    const user = userEvent.setup({ delay: null });
    renderRelative(`/manage/followup/config?id=${PLAN_ID}`);
    const offset = await screen.findByLabelText('第1个访视时间间隔', {}, SLOW);
    fireEvent.change(offset, { target: { value: '4' } });
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        '已有 5 名患者在执行此计划。是否按新计划重新安排他们未完成的随访任务？已完成的随访不受影响。',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '重新安排' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ id: PLAN_ID, rowVersion: 4, reschedule: true });
    expect((bodies[0]?.visits as { offset: number }[])[0]?.offset).toBe(4);
  });

  it("should not ask when only the name of a plan in use changes, and keep the visits' ids", async () => {
    servePlanPages();
    serveDetail(buildPlan({ status: 'active', patientCount: 5 }));
    const bodies = captureUpdates();
    const user = userEvent.setup({ delay: null });
    renderRelative(`/manage/followup/config?id=${PLAN_ID}`);
    fireEvent.change(await screen.findByLabelText('计划名称', {}, SLOW), { target: { value: '新名称' } });
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).not.toHaveProperty('reschedule');
    expect((bodies[0]?.visits as { id?: string }[]).map((v) => v.id)).toEqual([
      '00000000-0000-4000-8000-0000000000a1',
      '00000000-0000-4000-8000-0000000000a2',
    ]);
    expect(screen.queryByText(/是否按新计划重新安排/)).not.toBeInTheDocument();
  });

  it('should not ask when no patient follows the plan', async () => {
    servePlanPages();
    serveDetail(buildPlan({ status: 'draft', patientCount: 0 }));
    const bodies = captureUpdates();
    const user = userEvent.setup({ delay: null });
    renderRelative(`/manage/followup/config?id=${PLAN_ID}`);
    fireEvent.change(await screen.findByLabelText('第1个访视时间间隔', {}, SLOW), { target: { value: '4' } });
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).not.toHaveProperty('reschedule');
    expect(screen.queryByText(/是否按新计划重新安排/)).not.toBeInTheDocument();
  });

  it('should show a 400 issue under the field its path names', async () => {
    servePlanPages();
    serveDetail();
    server.use(
      http.put(apiUrl('/followup/plan'), () =>
        HttpResponse.json(
          {
            status: 400,
            message: '访视名称不能重复',
            data: null,
            requestId: 'r-1',
            issues: [{ path: 'visits.1.name', message: '访视名称不能重复' }],
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderRelative(`/manage/followup/config?id=${PLAN_ID}`);
    const second = await screen.findByLabelText('第2个访视名称', {}, SLOW);
    fireEvent.change(second, { target: { value: '3个月随访' } });
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => {
      const item = second.closest('.ant-form-item');
      expect(item).not.toBeNull();
      expect(within(item as HTMLElement).getByText('访视名称不能重复')).toBeInTheDocument();
    });
  });

  it('should reload the plan after a stale save (409)', async () => {
    servePlanPages();
    let reads = 0;
    server.use(
      http.get(apiUrl('/followup/plan/detail'), () => {
        reads += 1;
        return ok(reads === 1 ? buildPlan() : buildPlan({ name: '他人修改后的名称', rowVersion: 5 }));
      }),
      http.put(apiUrl('/followup/plan'), () =>
        HttpResponse.json(
          { status: 409, message: '随访计划已被他人修改，请刷新后重试', data: null, requestId: 'r-2' },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderRelative(`/manage/followup/config?id=${PLAN_ID}`);
    fireEvent.change(await screen.findByLabelText('计划名称', {}, SLOW), { target: { value: '我的修改' } });
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await user.click(await screen.findByRole('button', { name: '重新加载' }, SLOW));
    await waitFor(() => expect(screen.getByLabelText('计划名称')).toHaveValue('他人修改后的名称'));
    expect(reads).toBe(2);
  });
});

describe('fixed plan editor', () => {
  it('should preview the dates of a period with month ends clamped', async () => {
    servePlanPages();
    serveDetail(
      buildPlan({
        kind: 'fixed',
        anchor: null,
        anchorLabel: null,
        visits: [],
        period: {
          startDate: '2027-01-31',
          everyMonths: 1,
          times: 3,
          windowBefore: 3,
          windowAfter: 5,
          formKeys: ['followup_visit'],
          contactMethod: 'phone',
        },
      }),
    );
    renderRoute(<FixedPlanPage />, {
      path: '/manage/fix-followup-plan',
      at: `/manage/fix-followup-plan?id=${PLAN_ID}`,
    });
    await waitFor(
      () =>
        expect(screen.getAllByTestId('period-date').map((el) => el.textContent)).toEqual([
          '2027-01-31',
          '2027-02-28',
          '2027-03-31',
        ]),
      SLOW,
    );
    expect(screen.getByText('窗口 2027-02-25 ~ 2027-03-05')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('随访次数'), { target: { value: '4' } });
    await waitFor(() => expect(screen.getAllByTestId('period-date')).toHaveLength(4));
    expect(screen.getAllByTestId('period-date')[3]).toHaveTextContent('2027-04-30');
  });

  it('should keep the dates of a fixed plan given date by date', async () => {
    servePlanPages();
    serveDetail(
      buildPlan({
        kind: 'fixed',
        anchor: null,
        anchorLabel: null,
        visits: [
          buildVisit({ offset: null, offsetUnit: null, fixedDate: '2027-03-01', name: '春季随访' }),
          buildVisit({
            id: '00000000-0000-4000-8000-0000000000a2',
            seq: 2,
            offset: null,
            offsetUnit: null,
            fixedDate: '2027-09-01',
            name: '秋季随访',
          }),
        ],
      }),
    );
    const bodies = captureUpdates();
    const user = userEvent.setup({ delay: null });
    renderRoute(<FixedPlanPage />, {
      path: '/manage/fix-followup-plan',
      at: `/manage/fix-followup-plan?id=${PLAN_ID}`,
    });
    expect(await screen.findByLabelText('第1个访视日期', {}, SLOW)).toHaveValue('2027-03-01');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ kind: 'fixed', anchor: null, period: null });
    expect((bodies[0]?.visits as Record<string, unknown>[]).map((v) => [v.name, v.fixedDate, v.offset])).toEqual([
      ['春季随访', '2027-03-01', null],
      ['秋季随访', '2027-09-01', null],
    ]);
  });
});
