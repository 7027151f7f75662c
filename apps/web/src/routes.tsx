// The route table of spec §2. To add a screen, add one entry here; signed-in screens
// (/dashboard, /vault/:vaultId, /subscription) will sit under a guard route that the Accounts
// issue adds, and /dropbox-auth is public. Screens other than the landing load lazily.
import type { RouteObject } from 'react-router';
import { Navigate } from 'react-router';
import { PageLoading, RootLayout } from './RootLayout.tsx';
import { LandingScreen } from './screens/landing/LandingScreen.tsx';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: PageLoading,
    children: [
      { index: true, element: <LandingScreen /> },
      {
        path: 'auth',
        lazy: async () => ({
          Component: (await import('./screens/auth/AuthScreen.tsx')).AuthScreen,
        }),
      },
      // Next: { path: 'dashboard' }, { path: 'vault/:vaultId' }, { path: 'subscription' },
      // { path: 'dropbox-auth' }.
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
