// The layout of the signed-in routes: the guard, the top bar and the screen below it, and the
// warning before any vault locks (vaults/idle), on every signed-in screen.
import { Outlet } from 'react-router';
import { LockWarning } from '../vaults/idle/LockWarning.tsx';
import { useForgetOnLock } from '../vaults/useForgetOnLock.ts';
import { RequireAuth } from './RequireAuth.tsx';
import { TopBar } from './TopBar.tsx';

export function AppShell() {
  useForgetOnLock();
  return (
    <RequireAuth>
      <div className="min-h-dvh bg-slate-50 dark:bg-slate-950">
        <TopBar />
        <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
          <Outlet />
        </main>
        <LockWarning />
      </div>
    </RequireAuth>
  );
}
