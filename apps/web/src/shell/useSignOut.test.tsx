// @vitest-environment happy-dom
// Signing out under the session guard ([Note: sign-out under way]): the guard must not send the
// visitor to /auth in the old document (its passkey autofill could sign them straight back in);
// the full page load does the leaving. In a file of its own: the mark of a sign-out never clears.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { AuthState } from '../auth/useAuthState.ts';
import { RequireAuth } from './RequireAuth.tsx';
import { useSignOut } from './useSignOut.ts';

const mocks = vi.hoisted(() => {
  let current: AuthState = { status: 'loading' };
  const listeners = new Set<() => void>();
  return {
    auth: {
      get: () => current,
      set(next: AuthState) {
        current = next;
        for (const listener of listeners) listener();
      },
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    signOut: vi.fn<() => Promise<unknown>>(),
    endAllVaultSessions: vi.fn(),
  };
});
vi.mock('../auth/useAuthState.ts', async () => {
  const { useSyncExternalStore } = await import('react');
  return { useAuthState: () => useSyncExternalStore(mocks.auth.subscribe, mocks.auth.get) };
});
vi.mock('../auth/authClient.ts', () => ({ authClient: { signOut: mocks.signOut } }));
vi.mock('../vaults/sessionContext.tsx', () => ({
  endAllVaultSessions: mocks.endAllVaultSessions,
}));
afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function VaultScreen() {
  const signOut = useSignOut();
  return (
    <>
      <Where />
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </>
  );
}

it('keeps the screen still while signing out, then leaves with a full page load', async () => {
  const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => undefined);
  let finish = () => {};
  mocks.signOut.mockImplementation(
    () =>
      new Promise((resolve) => {
        // The server has ended the session; the session store notices before the call returns.
        mocks.auth.set({ status: 'signedOut' });
        finish = () => resolve(undefined);
      }),
  );
  mocks.auth.set({
    status: 'signedIn',
    session: { user: { id: 'u1' }, session: { id: 's1' } },
  } as unknown as AuthState);
  const router = createMemoryRouter(
    [
      { path: '/auth', element: <p>auth page</p> },
      {
        path: '/vault/:vaultId',
        element: (
          <RequireAuth>
            <VaultScreen />
          </RequireAuth>
        ),
      },
    ],
    { initialEntries: ['/vault/xyz'] },
  );
  render(<RouterProvider router={router} />);

  fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
  expect(mocks.signOut).toHaveBeenCalledOnce();
  // Signed out, the sign-out call not yet returned: no /auth, the screen as it was.
  expect(screen.queryByText('auth page')).toBeNull();
  expect(screen.getByTestId('where').textContent).toBe('/vault/xyz');
  expect(replace).not.toHaveBeenCalled();

  act(() => finish());
  await vi.waitFor(() => expect(replace).toHaveBeenCalledExactlyOnceWith('/'));
  expect(mocks.endAllVaultSessions).toHaveBeenCalledOnce();
  expect(router.state.location.pathname).toBe('/vault/xyz');
  expect(screen.queryByText('auth page')).toBeNull();
});
