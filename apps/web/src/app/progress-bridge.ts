import type { createBrowserRouter } from 'react-router';
import { doneProgress, startProgress } from '../lib/progress';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** NProgress (no spinner) from navigation start until the navigation is done (seed §2). */
export function connectProgress(router: AppRouter): () => void {
  if (!router.state.initialized) startProgress();
  return router.subscribe((state) => {
    if (state.navigation.state !== 'idle' || !state.initialized) startProgress();
    else doneProgress();
  });
}
