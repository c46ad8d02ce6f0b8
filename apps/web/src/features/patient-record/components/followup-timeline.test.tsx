import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { PatientTimelineItem } from '@registry/shared/contracts/followup';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { FollowupTimeline } from './followup-timeline';

function buildTask(overrides: Partial<PatientTimelineItem> = {}): PatientTimelineItem {
  return {
    id: 't1',
    patientId: 'pt1',
    patientNo: 'C01-0003',
    patientName: '张*',
    gender: '1',
    phone: null,
    centerId: 'c1',
    centerName: '一中心',
    planId: 'pl1',
    planName: '心衰随访',
    visitId: 'v1',
    visitName: '出院后3个月',
    contactMethod: 'phone',
    dueDate: '2026-03-17',
    windowStart: '2026-03-10',
    windowEnd: '2026-03-24',
    status: 'done',
    state: 'done',
    ownerId: 'u1',
    ownerName: '李护士',
    attempts: 2,
    lastContactAt: '2026-03-12T02:00:00.000Z',
    lastOutcome: 'reached',
    closedAt: '2026-03-12T03:00:00.000Z',
    closedReason: null,
    rowVersion: 3,
    contacts: [
      {
        id: 'k2',
        taskId: 't1',
        contactedAt: '2026-03-12T02:00:00.000Z',
        method: 'phone',
        outcome: 'reached',
        note: '已复诊',
        createdByName: '李护士',
        createdAt: '2026-03-12T02:00:00.000Z',
      },
      {
        id: 'k1',
        taskId: 't1',
        contactedAt: '2026-03-11T02:00:00.000Z',
        method: 'phone',
        outcome: 'no_answer',
        note: null,
        createdByName: '李护士',
        createdAt: '2026-03-11T02:00:00.000Z',
      },
    ],
    ...overrides,
  };
}

describe('FollowupTimeline', () => {
  it('should list each task with plan · visit, state, due date, window, owner and its contacts', async () => {
    setToken('tok');
    server.use(
      http.get(apiUrl('/followup/patient/timeline'), () =>
        ok([
          buildTask(),
          buildTask({
            id: 't2',
            visitName: '出院后6个月',
            dueDate: '2026-06-17',
            windowStart: '2026-06-10',
            windowEnd: '2026-06-24',
            status: 'open',
            state: 'overdue',
            ownerId: null,
            ownerName: null,
            contacts: [],
          }),
        ]),
      ),
    );
    renderRoute(<FollowupTimeline patientId="pt1" />, { path: '/patient/file', at: '/patient/file?id=pt1' });
    const timeline = await screen.findByRole('list', { name: '随访时间线' });
    const first = await within(timeline).findByRole('link', { name: '心衰随访 · 出院后3个月' });
    expect(first).toHaveAttribute('href', '/followup/edit?id=t1');
    expect(within(timeline).getByText('已完成')).toBeInTheDocument();
    expect(
      within(timeline).getByText('应随访 2026-03-17 · 窗口期 2026-03-10 至 2026-03-24 · 负责人 李护士'),
    ).toBeInTheDocument();
    const contacts = within(timeline).getByRole('list', { name: '出院后3个月的联系记录' });
    expect(within(contacts).getByText('已联系上')).toBeInTheDocument();
    expect(within(contacts).getByText('无人接听')).toBeInTheDocument();
    expect(within(contacts).getByText('已复诊')).toBeInTheDocument();
    const overdue = within(timeline).getByText('已超窗');
    expect(overdue.closest('.ant-tag')).toHaveClass('ant-tag-red');
    expect(within(timeline).getByText(/负责人 未分配/)).toBeInTheDocument();
  });
});
