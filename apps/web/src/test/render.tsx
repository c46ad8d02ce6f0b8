import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Providers } from '../app/providers';
import { createQueryClient } from '../app/query-client';

/** Renders `ui` inside the app's providers (antd zh_CN, App, TanStack Query) and a memory router. */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = createQueryClient();
  const wrap = (node: ReactElement) => (
    <Providers queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
    </Providers>
  );
  const result = render(wrap(ui));
  // rerender keeps the providers (and their state) around the new element.
  return { ...result, rerender: (next: ReactElement) => result.rerender(wrap(next)), queryClient };
}
