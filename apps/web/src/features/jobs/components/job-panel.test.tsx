import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { JobAdminVO } from '@registry/shared/contracts/job';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { canManageJobs, JobPanel } from './job-panel';

const jobVO = (over: Partial<JobAdminVO> = {}): JobAdminVO => ({
  id: '0b0f8f4c-1111-4a6e-9a53-2b8c7cbb0001',
  queue: 'export',
  deadLetter: false,
  state: 'failed',
  retryCount: 2,
  retryLimit: 2,
  error: '网关不可用',
  tenantId: null,
  userId: null,
  progress: null,
  createdAt: '2026-11-25T08:00:00.000Z',
  startAfter: '2026-11-25T08:00:00.000Z',
  startedAt: '2026-11-25T08:00:01.000Z',
  completedAt: '2026-11-25T08:00:09.000Z',
  ...over,
});

describe('canManageJobs', () => {
  it('should offer 后台任务 to the platform administrator only', () => {
    expect(canManageJobs(['tenant.manage'])).toBe(true);
    expect(canManageJobs(['support.grant', 'user.manage'])).toBe(false);
  });
});

describe('JobPanel', () => {
  it('should list the failed jobs with their error and retry one', async () => {
    setToken('tok');
    const queries: string[] = [];
    const retried: unknown[] = [];
    let jobs = [
      jobVO(),
      jobVO({
        id: '0b0f8f4c-1111-4a6e-9a53-2b8c7cbb0002',
        queue: 'export__dead',
        deadLetter: true,
        state: 'created',
        error: null,
      }),
    ];
    server.use(
      http.get(apiUrl('/sys-job/list'), ({ request }) => {
        const state = new URL(request.url).searchParams.get('state');
        queries.push(state ?? '');
        return ok({ items: jobs.filter((j) => !state || j.state === state) });
      }),
      http.post(apiUrl('/sys-job/retry'), async ({ request }) => {
        retried.push(await request.json());
        jobs = [jobVO({ state: 'retry', error: null }), ...jobs.slice(1)];
        return ok(jobs[0]);
      }),
    );
    renderRoute(<JobPanel />, { path: '/person/project-manage', at: '/person/project-manage?tab=jobs' });
    expect(await screen.findByText('网关不可用', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(queries[0]).toBe('failed');
    expect(screen.getByText('2/2')).toBeInTheDocument();
    expect(screen.queryByText('export__dead')).not.toBeInTheDocument(); // the dead letter is not failed

    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(retried).toEqual([{ id: '0b0f8f4c-1111-4a6e-9a53-2b8c7cbb0001' }]), {
      timeout: 20_000,
    });
    // the failed list is asked again and the retried job left it
    await waitFor(() => expect(screen.queryByText('网关不可用')).not.toBeInTheDocument(), { timeout: 20_000 });
    expect(screen.getByText('暂无任务')).toBeInTheDocument();
  }, 60_000);
});
