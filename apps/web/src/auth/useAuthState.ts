// The auth state of docs/product.md §4: loading, then signed in or signed out. Loading is forced to end
// after 5 seconds (docs/product.md §9), after which a still-unanswered session check counts as signed out.
import { useEffect, useState } from 'react';
import { authClient, type AuthSession } from './authClient.ts';
import { rememberAuthState } from './signedInHint.ts';

export const AUTH_LOADING_TIMEOUT_MS = 5_000;

export type AuthState =
  { status: 'loading' } | { status: 'signedOut' } | { status: 'signedIn'; session: AuthSession };

export function resolveAuthState(
  pending: boolean,
  session: AuthSession | null | undefined,
  timedOut: boolean,
): AuthState {
  if (session) return { status: 'signedIn', session };
  if (pending && !timedOut) return { status: 'loading' };
  return { status: 'signedOut' };
}

export function useAuthState(): AuthState {
  const { data, isPending } = authClient.useSession();
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!isPending) return;
    const timer = setTimeout(() => setTimedOut(true), AUTH_LOADING_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [isPending]);
  const state = resolveAuthState(isPending, data, timedOut);
  // The hint behind index.html's dashboard frame ([Note: dashboard frame before the app]).
  useEffect(() => rememberAuthState(state.status), [state.status]);
  return state;
}
