// The signed-in guard of docs/product.md §2 for /dashboard, /vault/:vaultId and /subscription: a spinner
// with a loading message while the session loads (forced to end after 5 s, docs/product.md §4), and with no
// session a redirect to /auth that remembers where the visitor was going.
import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { authPathFor } from '../auth/redirect.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { useAuthState } from '../auth/useAuthState.ts';
import { SessionProvider } from './session.tsx';

export function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuthState();
  const location = useLocation();
  if (auth.status === 'loading') return <AuthLoading />;
  if (auth.status === 'signedOut') return <Navigate to={authPathFor(location)} replace />;
  return <SessionProvider session={auth.session}>{children}</SessionProvider>;
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
