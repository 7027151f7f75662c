// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { AuthState } from '../auth/useAuthState.ts';
import { RequireAuth } from './RequireAuth.tsx';

const state: { current: AuthState } = vi.hoisted(() => ({ current: { status: 'loading' } }));
vi.mock('../auth/useAuthState.ts', () => ({ useAuthState: () => state.current }));
afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/auth', element: <Where /> },
      {
        path: '/vault/:vaultId',
        element: (
          <RequireAuth>
            <p>vault content</p>
          </RequireAuth>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
}

it('shows a spinner with a loading message while the session loads', () => {
  state.current = { status: 'loading' };
  renderAt('/vault/xyz');
  expect(screen.getByRole('status').textContent).toContain('Loading your account...');
  expect(screen.queryByText('vault content')).toBeNull();
});

it('sends a signed-out visitor to /auth, remembering the location', async () => {
  state.current = { status: 'signedOut' };
  renderAt('/vault/xyz?tab=files');
  expect((await screen.findByTestId('where')).textContent).toBe(
    '/auth?next=%2Fvault%2Fxyz%3Ftab%3Dfiles',
  );
});

it('shows the screen to a signed-in user', () => {
  state.current = {
    status: 'signedIn',
    session: { user: { id: 'u1' }, session: { id: 's1' } },
  } as unknown as AuthState;
  renderAt('/vault/xyz');
  expect(screen.getByText('vault content')).toBeTruthy();
});
