import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { HomePage } from './home-page';

const SUMMARY = {
  dueToday: 3,
  due: 7,
  dueThisWeek: 12,
  overdue: 4,
  mineDue: 2,
  mineOverdue: 1,
  completionRate: 0.853,
};

function serveHome() {
  const calls: string[] = [];
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p1', projectName: '心衰登记', projectCode: 'HF', subProject: false }),
    ),
    http.get(apiUrl('/followup/summary'), () => {
      calls.push('summary');
      return ok(SUMMARY);
    }),
  );
  return calls;
}

describe('HomePage follow-up figures', () => {
  it('should show due, due today, overdue and mine as cards opening the worklist on the matching tab and filter', async () => {
    setToken('tok');
    serveHome();
    useMenuStore.getState().setProjectMenu([], ['home.view', 'followup.list']);
    renderRoute(<HomePage />, { path: '/home', at: '/home' });
    const today = shanghaiDate(new Date());
    const due = await screen.findByRole('link', { name: '待随访' });
    expect(await within(due).findByText('7')).toBeInTheDocument();
    expect(due).toHaveAttribute('href', '/followup/list?tab=due');
    const dueToday = screen.getByRole('link', { name: '今日到期' });
    expect(within(dueToday).getByText('3')).toBeInTheDocument();
    expect(dueToday).toHaveAttribute('href', `/followup/list?tab=due&from=${today}&to=${today}`);
    const overdue = screen.getByRole('link', { name: '已超窗' });
    expect(within(overdue).getByText('4')).toBeInTheDocument();
    expect(overdue).toHaveAttribute('href', '/followup/list?tab=overdue');
    const mine = screen.getByRole('link', { name: '我的待随访' });
    expect(within(mine).getByText('2')).toBeInTheDocument();
    expect(mine).toHaveAttribute('href', '/followup/list?tab=due&owner=me');
    expect(screen.queryByRole('link', { name: '今日待随访' })).not.toBeInTheDocument();
    expect(screen.getByText('近一年随访完成率 85.3%')).toBeInTheDocument();
  });

  it('should neither show nor ask for the figures without followup.list', async () => {
    setToken('tok');
    const calls = serveHome();
    useMenuStore.getState().setProjectMenu([], ['home.view', 'patient.list']);
    renderRoute(<HomePage />, { path: '/home', at: '/home' });
    expect(await screen.findByText('心衰登记')).toBeInTheDocument();
    expect(screen.queryByText('随访概况')).not.toBeInTheDocument();
    // The developers' list of open pages is not shown to users.
    expect(screen.queryByText(/已开放 \d+ \/ \d+ 个页面/)).not.toBeInTheDocument();
    expect(screen.queryByText('功能模块')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('should not show zero figures while the summary loads, nor when it failed', async () => {
    setToken('tok');
    serveHome();
    server.use(
      http.get(apiUrl('/followup/summary'), () =>
        HttpResponse.json({ status: 500, message: '服务器繁忙', data: null, requestId: 'r' }, { status: 500 }),
      ),
    );
    useMenuStore.getState().setProjectMenu([], ['home.view', 'followup.list']);
    renderRoute(<HomePage />, { path: '/home', at: '/home' });
    const due = await screen.findByRole('link', { name: '待随访' });
    expect(within(due).queryByText('0')).not.toBeInTheDocument();
    expect(await within(due).findByText('—')).toBeInTheDocument();
    expect(within(due).queryByText('0')).not.toBeInTheDocument();
  });
});
