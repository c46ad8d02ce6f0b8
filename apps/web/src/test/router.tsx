import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { Providers } from '../app/providers';
import { createQueryClient } from '../app/query-client';

function WhereAmI() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

/**
 * Renders `element` at `path` in a data router with the app's providers; every other path renders a probe showing
 * the current location, so a test can see where the page navigated.
 */
export function renderRoute(element: ReactElement, { path, at }: { path: string; at: string }) {
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '*', element: <WhereAmI /> },
    ],
    { initialEntries: [at] },
  );
  const queryClient = createQueryClient();
  const result = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient };
}
