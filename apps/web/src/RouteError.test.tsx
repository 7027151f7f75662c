// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { RouteError } from './RouteError.tsx';

afterEach(cleanup);

function renderFailing(message: string) {
  const router = createMemoryRouter([
    {
      path: '/',
      errorElement: <RouteError />,
      loader: () => {
        throw new Error(message);
      },
      element: <p>never</p>,
    },
  ]);
  render(<RouterProvider router={router} />);
}

describe('route error screen', () => {
  it('offers a reload when the code of a screen cannot be loaded (a new release)', async () => {
    renderFailing('Failed to fetch dynamically imported module: /assets/Dashboard-abc.js');
    expect(
      await screen.findByRole('heading', { name: 'A new version of SealVault is available' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('shows a plain message for any other error, never the stack', async () => {
    renderFailing('boom at secret place');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.queryByText(/boom at secret place/)).toBeNull();
  });
});
