// The signed-in session, handed down by the guard so screens under it never see "no session".
import { createContext, useContext, type ReactNode } from 'react';
import type { AuthSession } from '../auth/authClient.ts';

const SessionContext = createContext<AuthSession | null>(null);

export function SessionProvider({
  session,
  children,
}: {
  session: AuthSession;
  children: ReactNode;
}) {
  return <SessionContext value={session}>{children}</SessionContext>;
}

/** The current session; only for components under RequireAuth. */
export function useSession(): AuthSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is only available under RequireAuth');
  return session;
}
