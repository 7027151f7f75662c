// The signed-in guard of docs/product.md §2 for /dashboard, /vault/:vaultId and /subscription: a spinner
// with a loading message while the session loads (forced to end after 5 s, docs/product.md §4), and with no
// session a redirect to /auth that remembers where the visitor was going. While a sign-out is under
// way the screen stays as it was, on the last session, until the page load that ends the sign-out
// ([Note: sign-out under way] in useSignOut.ts).
import { Loader2 } from 'lucide-react';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { AuthSession } from '../auth/authClient.ts';
import { authPathFor } from '../auth/redirect.ts';
import { keptDashboardFrame } from '../auth/signedInHint.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { useAuthState } from '../auth/useAuthState.ts';
import { DashboardLoading } from './DashboardLoading.tsx';
import { SessionProvider } from './session.tsx';
import { useSigningOut } from './useSignOut.ts';

export function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuthState();
  const location = useLocation();
  const signingOut = useSigningOut();
  // The last signed-in session, kept for the moment between a sign-out and its page load.
  const [last, setLast] = useState<AuthSession | null>(null);
  if (auth.status === 'signedIn' && auth.session !== last) setLast(auth.session);
  // [Note: the signed-in screen renders in slices] The session check's answer arrives through an
  // external store (Better Auth's), whose updates React renders at once, in one task: the whole
  // screen below, its first render, was one long task of about 50 ms (200 ms on Lighthouse's
  // slowed phone, issue 31). The step from no session to a session is deferred instead: the
  // loading state stays on screen while React renders the screen in the background, in slices,
  // and then shows it. A later change of session (a refresh, a sign-out) is not deferred.
  const current = auth.status === 'signedIn' ? auth.session : null;
  const deferred = useDeferredValue(current);
  const rendering = current !== null && deferred === null;
  const session = rendering ? null : (current ?? (signingOut ? last : null));
  if (session) return <SessionProvider session={session}>{children}</SessionProvider>;
  if (auth.status === 'loading' || signingOut || rendering) {
    // Where index.html drew the dashboard's frame ([Note: dashboard frame before the app]).
    const frame = location.pathname === '/dashboard' && !signingOut ? keptDashboardFrame() : null;
    return frame ? <DashboardLoading frame={frame} /> : <AuthLoading />;
  }
  return <Navigate to={authPathFor(location)} replace />;
}

export function AuthLoading() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className="flex min-h-dvh flex-col items-center justify-center gap-3 bg-slate-50 text-slate-600 dark:bg-slate-950 dark:text-slate-400"
    >
      <Loader2 aria-hidden="true" className="size-8 animate-spin text-indigo-500" />
      <p className="text-sm">{t('Loading your account...')}</p>
    </div>
  );
}
