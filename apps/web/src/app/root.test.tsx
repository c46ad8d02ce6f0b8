import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { RootErrorBoundary } from './root';

describe('RootErrorBoundary', () => {
  it('should say the page failed to load and offer a reload when a route throws', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '/',
          ErrorBoundary: RootErrorBoundary,
          loader: () => {
            throw new Error('chunk missing');
          },
          Component: () => null,
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: '页面加载失败' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '刷新页面' })).toBeInTheDocument();
  });
});
