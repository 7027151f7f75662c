// @vitest-environment happy-dom
// [Note: sign-out under way] for a page that leaves without useSignOut (an account deleted:
// settings/DeleteAccountPanel.tsx): once marked, the guard keeps the screen still when the
// session ends instead of sending the visitor to /auth. In a file of its own: the mark never clears.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { AuthState } from '../auth/useAuthState.ts';
import { RequireAuth } from './RequireAuth.tsx';
import { markSigningOut } from './useSignOut.ts';

const mocks = vi.hoisted(() => {
  let current: AuthState = { status: 'loading' };
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(next: AuthState) {
      current = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
});
vi.mock('../auth/useAuthState.ts', async () => {
  const { useSyncExternalStore } = await import('react');
  return { useAuthState: () => useSyncExternalStore(mocks.subscribe, mocks.get) };
});
vi.mock('../auth/authClient.ts', () => ({ authClient: { signOut: vi.fn() } }));
vi.mock('../vaults/sessionContext.tsx', () => ({ endAllVaultSessions: vi.fn() }));
afterEach(cleanup);

function routerAt(path: string) {
  return createMemoryRouter(
    [
      { path: '/auth', element: <p>auth page</p> },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <p>settings</p>
          </RequireAuth>
        ),
      },
    ],
    { initialEntries: [path] },
  );
}

it('sends a signed-out visitor to /auth unless the page is marked as leaving', () => {
  mocks.set({
    status: 'signedIn',
    session: { user: { id: 'u1' }, session: { id: 's1' } },
  } as unknown as AuthState);
  const unmarked = routerAt('/dashboard');
  render(<RouterProvider router={unmarked} />);
  act(() => mocks.set({ status: 'signedOut' }));
  expect(unmarked.state.location.pathname).toBe('/auth');
  cleanup();

  mocks.set({
    status: 'signedIn',
    session: { user: { id: 'u1' }, session: { id: 's1' } },
  } as unknown as AuthState);
  const marked = routerAt('/dashboard');
  render(<RouterProvider router={marked} />);
  act(() => markSigningOut());
  act(() => mocks.set({ status: 'signedOut' }));
  expect(marked.state.location.pathname).toBe('/dashboard');
  expect(screen.getByText('settings')).toBeTruthy();
  expect(screen.queryByText('auth page')).toBeNull();
});
