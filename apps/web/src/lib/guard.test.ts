import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import { STORAGE_KEYS } from '@registry/shared/constants';
import { server } from '../test/server';
import { http, HttpResponse } from '../test/api';
import { buildRoutes } from '../app/router';
import { hardNavigate } from './navigation-bridge';
import { checkVersion } from './version-check';
import { setToken } from './token';

vi.mock('./navigation-bridge', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./navigation-bridge')>()),
  hardNavigate: vi.fn(),
}));

function serveVersion(version: string) {
  const seen: URL[] = [];
  server.use(
    http.get('/version.json', ({ request }) => {
      seen.push(new URL(request.url));
      return HttpResponse.json({ version });
    }),
  );
  return seen;
}

async function navigateTo(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  await vi.waitFor(
    () => {
      expect(router.state.initialized).toBe(true);
      expect(router.state.navigation.state).toBe('idle');
    },
    { timeout: 15000 },
  );
  return router;
}

beforeEach(() => {
  vi.mocked(hardNavigate).mockClear();
});

describe('navigation guard', () => {
  it('should redirect to /login when no token is stored', async () => {
    serveVersion('v1');
    const router = await navigateTo('/home');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('should stay on /login when no token is stored', async () => {
    serveVersion('v1');
    const router = await navigateTo('/login');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('should redirect an unknown path to /404 when signed in', async () => {
    setToken('tok');
    serveVersion('v1');
    const router = await navigateTo('/no/such/page');
    expect(router.state.location.pathname).toBe('/404');
  });

  it('should redirect / and /person to /person/project when signed in', async () => {
    setToken('tok');
    serveVersion('v1');
    expect((await navigateTo('/')).state.location.pathname).toBe('/person/project');
    expect((await navigateTo('/person')).state.location.pathname).toBe('/person/project');
  });

  it('should fetch the version file with a timestamp when navigating each time', async () => {
    setToken('tok');
    const seen = serveVersion('v1');
    const router = await navigateTo('/404');
    await router.navigate('/login');
    await vi.waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const url of seen) expect(url.searchParams.get('timestamp')).toMatch(/^\d+$/);
  });

  it('should store the new version and reload the target when the version changed', async () => {
    setToken('tok');
    localStorage.setItem(STORAGE_KEYS.version, 'old-build');
    serveVersion('new-build');
    await navigateTo('/404?from=menu');
    expect(localStorage.getItem(STORAGE_KEYS.version)).toBe('new-build');
    expect(hardNavigate).toHaveBeenCalledWith('/404?from=menu');
  });

  it('should still navigate when the version check fails', async () => {
    setToken('tok');
    localStorage.setItem(STORAGE_KEYS.version, 'old-build');
    server.use(http.get('/version.json', () => HttpResponse.error()));
    const router = await navigateTo('/404');
    expect(router.state.location.pathname).toBe('/404');
    expect(localStorage.getItem(STORAGE_KEYS.version)).toBe('old-build');
    expect(hardNavigate).not.toHaveBeenCalled();
  });
});

describe('checkVersion', () => {
  it('should store the version without reloading when none was stored (first visit)', async () => {
    serveVersion('v7');
    await expect(checkVersion('/home')).resolves.toBe(false);
    expect(localStorage.getItem(STORAGE_KEYS.version)).toBe('v7');
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('should not reload when the version is unchanged', async () => {
    localStorage.setItem(STORAGE_KEYS.version, 'v7');
    serveVersion('v7');
    await expect(checkVersion('/home')).resolves.toBe(false);
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('should ignore the answer when the version file is not JSON with a version', async () => {
    localStorage.setItem(STORAGE_KEYS.version, 'v7');
    server.use(http.get('/version.json', () => HttpResponse.text('<html>', { status: 200 })));
    await expect(checkVersion('/home')).resolves.toBe(false);
    expect(localStorage.getItem(STORAGE_KEYS.version)).toBe('v7');
  });
});
