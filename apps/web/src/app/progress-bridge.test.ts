import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import NProgress from 'nprogress';
import { doneProgress, startProgress } from '../lib/progress';
import { connectProgress } from './progress-bridge';

vi.mock('../lib/progress', () => ({ startProgress: vi.fn(), doneProgress: vi.fn() }));

describe('navigation progress', () => {
  it('should start the bar when a navigation starts and finish it when the navigation is done', async () => {
    let release: () => void = () => undefined;
    const router = createMemoryRouter(
      [
        { path: '/', Component: () => null },
        {
          path: '/slow',
          Component: () => null,
          loader: () => new Promise<null>((resolve) => (release = () => resolve(null))),
        },
      ],
      { initialEntries: ['/'] },
    );
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
    const disconnect = connectProgress(router);
    vi.mocked(startProgress).mockClear();
    vi.mocked(doneProgress).mockClear();

    const navigation = router.navigate('/slow');
    await vi.waitFor(() => expect(startProgress).toHaveBeenCalled());
    expect(doneProgress).not.toHaveBeenCalled();
    release();
    await navigation;
    await vi.waitFor(() => expect(doneProgress).toHaveBeenCalled());
    disconnect();
  });
});

describe('progress bar settings', () => {
  it('should show no spinner when configured by the app', async () => {
    const actual = await vi.importActual<typeof import('../lib/progress')>('../lib/progress');
    expect(actual.startProgress).toBeTypeOf('function');
    expect((NProgress as unknown as { settings: { showSpinner: boolean } }).settings.showSpinner).toBe(false);
  });
});
