import { expect, it } from 'vitest';
import type { AuthSession } from './authClient.ts';
import { resolveAuthState } from './useAuthState.ts';

const session = { user: { id: 'u1' }, session: { id: 's1' } } as unknown as AuthSession;

it('is loading while the session check runs', () => {
  expect(resolveAuthState(true, undefined, false)).toEqual({ status: 'loading' });
});

it('ends loading as signed out after the time-out', () => {
  expect(resolveAuthState(true, undefined, true)).toEqual({ status: 'signedOut' });
});

it('is signed in with a session and signed out without one', () => {
  expect(resolveAuthState(false, session, false)).toEqual({ status: 'signedIn', session });
  expect(resolveAuthState(false, null, false)).toEqual({ status: 'signedOut' });
});
