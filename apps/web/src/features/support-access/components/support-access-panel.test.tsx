import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { canGrantSupport, SupportAccessPanel } from './support-access-panel';

const grantVO = (over: Record<string, unknown> = {}) => ({
  id: '0b0f8f4c-1111-4a6e-9a53-2b8c7cbb0001',
  grantedByName: '王主任',
  grantedAt: '2026-11-25T08:00:00.000Z',
  expiresAt: '2026-11-25T12:00:00.000Z',
  reason: '排查导入问题',
  revokedAt: null,
  revokedByName: null,
  active: true,
  ...over,
});

describe('canGrantSupport', () => {
  it('should offer 支持访问 to the tenant administrator in its own tenant only', () => {
    expect(canGrantSupport(['support.grant'], { homeTenantCode: 'h001', tenantCode: 'h001' })).toBe(true);
    expect(canGrantSupport(['support.grant'], { homeTenantCode: 'sys', tenantCode: 'h001' })).toBe(false);
    expect(canGrantSupport(['project.manage'], { homeTenantCode: 'h001', tenantCode: 'h001' })).toBe(false);
  });
});

describe('SupportAccessPanel', () => {
  it('should grant support access for the hours entered and revoke it', async () => {
    setToken('tok');
    const bodies: unknown[] = [];
    let grants: ReturnType<typeof grantVO>[] = [];
    const answer = () => ok({ activeUntil: grants.find((g) => g.active)?.expiresAt ?? null, grants });
    server.use(
      http.get(apiUrl('/support-access/list'), answer),
      http.post(apiUrl('/support-access'), async ({ request }) => {
        bodies.push(await request.json());
        grants = [grantVO()];
        return answer();
      }),
      http.post(apiUrl('/support-access/revoke'), async ({ request }) => {
        bodies.push(await request.json());
        grants = [grantVO({ active: false, revokedAt: '2026-11-25T09:00:00.000Z' })];
        return answer();
      }),
    );
    renderRoute(<SupportAccessPanel />, { path: '/person/project-manage', at: '/person/project-manage?tab=support' });
    expect(await screen.findByText(/患者数据脱敏只读/, {}, { timeout: 20_000 })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('授权时长（小时）'), { target: { value: '6' } });
    fireEvent.change(screen.getByLabelText('授权说明'), { target: { value: '排查导入问题' } });
    fireEvent.click(screen.getByRole('button', { name: '授予支持访问' }));
    expect(await screen.findByText('有效', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(bodies[0]).toEqual({ hours: 6, reason: '排查导入问题' });
    expect(screen.getByText(/系统管理员可查看和修改本租户的患者数据/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: /撤\s*销/ }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: /撤\s*销/ }).length).toBe(2), { timeout: 20_000 });
    fireEvent.click(screen.getAllByRole('button', { name: /撤\s*销/ }).at(-1)!);
    expect(await screen.findByText('已撤销', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(bodies[1]).toEqual({ id: grantVO().id });
  });
});
