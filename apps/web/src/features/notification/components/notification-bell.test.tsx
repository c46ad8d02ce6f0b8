import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationVO } from '@registry/shared/contracts/notification';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { NotificationBell } from './notification-bell';

function buildNotification(overrides: Partial<NotificationVO> = {}): NotificationVO {
  return {
    id: 'n1',
    kind: 'followup_due',
    title: '随访提醒：C01-0003 出院后3个月',
    body: '心衰随访 · 出院后3个月：应随访日期 2026-03-17，窗口期 2026-03-10 至 2026-03-24。',
    link: '/followup/edit?id=t1',
    projectId: 'p1',
    projectName: '心衰登记',
    readAt: null,
    createdAt: '2026-03-07T00:01:00.000Z',
    ...overrides,
  };
}

/** Serves a mutable inbox: the count, the page and `read` all work on the same list. */
function serveInbox(items: NotificationVO[]) {
  const reads: unknown[] = [];
  const unread = () => items.filter((n) => n.readAt === null).length;
  server.use(
    http.get(apiUrl('/notification/unread-count'), () => ok({ count: unread() })),
    http.post(apiUrl('/notification/page'), () => ok({ records: items, total: items.length, current: 1, size: 10 })),
    http.post(apiUrl('/notification/read'), async ({ request }) => {
      const body = (await request.json()) as { ids?: string[]; all?: boolean };
      reads.push(body);
      for (const n of items) if (body.all || body.ids?.includes(n.id)) n.readAt = '2026-03-07T01:00:00.000Z';
      return ok({ count: unread() });
    }),
  );
  return reads;
}

describe('NotificationBell', () => {
  it('should show the unread count and list the latest notifications with title, body and time', async () => {
    setToken('tok');
    serveInbox([
      buildNotification(),
      buildNotification({ id: 'n2', title: '随访提醒：C01-0004 出院后6个月', readAt: 'x' }),
    ]);
    renderRoute(<NotificationBell />, { path: '/home', at: '/home' });
    const bell = await screen.findByRole('button', { name: '通知，1条未读' });
    await userEvent.setup({ delay: null }).click(bell);
    const list = await screen.findByRole('list', { name: '通知列表' });
    expect(within(list).getByText('随访提醒：C01-0003 出院后3个月')).toBeInTheDocument();
    expect(within(list).getAllByText(/窗口期 2026-03-10 至 2026-03-24/)).toHaveLength(2);
    expect(within(list).getAllByText(/心衰登记 · 2026-03-07/)).toHaveLength(2);
    expect(within(list).getByRole('button', { name: '已读：随访提醒：C01-0004 出院后6个月' })).toBeInTheDocument();
  });

  it('should mark a notification read and open its link when clicked', async () => {
    setToken('tok');
    const reads = serveInbox([buildNotification()]);
    renderRoute(<NotificationBell />, { path: '/home', at: '/home' });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: '通知，1条未读' }));
    await user.click(await screen.findByRole('button', { name: '未读：随访提醒：C01-0003 出院后3个月' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/followup/edit?id=t1');
    await waitFor(() => expect(reads).toEqual([{ ids: ['n1'] }]));
  });

  it('should mark every notification read with 全部已读 and clear the badge', async () => {
    setToken('tok');
    const reads = serveInbox([buildNotification(), buildNotification({ id: 'n2' })]);
    renderRoute(<NotificationBell />, { path: '/home', at: '/home' });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: '通知，2条未读' }));
    await screen.findByRole('list', { name: '通知列表' });
    await user.click(screen.getByRole('button', { name: /全部已读/ }));
    await waitFor(() => expect(reads).toEqual([{ all: true }]));
    expect(await screen.findByRole('button', { name: '通知' })).toBeInTheDocument();
  });

  it('should say so when there is no notification', async () => {
    setToken('tok');
    serveInbox([]);
    renderRoute(<NotificationBell />, { path: '/home', at: '/home' });
    await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name: '通知' }));
    expect(await screen.findByText('暂无通知')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /全部已读/ })).toBeDisabled();
  });
});
