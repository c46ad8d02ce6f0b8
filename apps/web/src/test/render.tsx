import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Providers } from '../app/providers';
import { createQueryClient } from '../app/query-client';

/** Renders `ui` inside the app's providers (antd zh_CN, App, TanStack Query) and a memory router. */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = createQueryClient();
  const result = render(
    <Providers queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </Providers>,
  );
  return { ...result, queryClient };
}
