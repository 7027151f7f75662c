// The layout of the signed-in routes: the guard, the top bar and the screen below it.
import { Outlet } from 'react-router';
import { RequireAuth } from './RequireAuth.tsx';
import { TopBar } from './TopBar.tsx';

export function AppShell() {
  return (
    <RequireAuth>
      <div className="min-h-dvh bg-slate-50 dark:bg-slate-950">
        <TopBar />
        <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
          <Outlet />
        </main>
      </div>
    </RequireAuth>
  );
}
