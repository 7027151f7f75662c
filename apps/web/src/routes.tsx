// The route table of docs/product.md §2. To add a screen, add one entry here; signed-in screens
// (/dashboard, /vault/:vaultId, /subscription, /admin) sit under the guard route of the shell, and
// /dropbox-auth, /google-auth, /onedrive-auth and a share link's /s/:shareId are public. Each route shows one composition of
// screens/; those other than the landing load lazily.
import type { RouteObject } from 'react-router';
import { Navigate } from 'react-router';
import { PageLoading, RootLayout } from './RootLayout.tsx';
import { RouteError } from './RouteError.tsx';
import { LandingScreen } from './screens/LandingScreen.tsx';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: PageLoading,
    children: [
      { index: true, element: <LandingScreen /> },
      {
        path: 'auth',
        // The loader has the texts of a refused sign-in's notice ready before the page draws
        // (auth/usePolicyTexts.ts); its module is one the screen imports anyway.
        lazy: async () => {
          const [{ AuthScreen }, { authPageLoader }] = await Promise.all([
            import('./screens/AuthScreen.tsx'),
            import('./auth/usePolicyTexts.ts'),
          ]);
          return { Component: AuthScreen, loader: authPageLoader };
        },
      },
      {
        // Signed-in screens: the guard and the top bar (shell/AppShell.tsx) around each.
        lazy: async () => ({ Component: (await import('./shell/AppShell.tsx')).AppShell }),
        children: [
          {
            path: 'dashboard',
            lazy: async () => ({
              Component: (await import('./screens/DashboardScreen.tsx')).DashboardScreen,
            }),
          },
          {
            path: 'subscription',
            lazy: async () => ({
              Component: (await import('./screens/SubscriptionScreen.tsx')).SubscriptionScreen,
            }),
          },
          {
            // The admin console (issue 33): admins only; anyone else is told it is not for them.
            path: 'admin',
            lazy: async () => ({
              Component: (await import('./screens/AdminScreen.tsx')).AdminScreen,
            }),
          },
          {
            path: 'vault/:vaultId',
            lazy: async () => ({
              Component: (await import('./screens/VaultScreen.tsx')).VaultScreen,
            }),
          },
        ],
      },
      // The sign-in popups' return pages (public): hand the answer to the app's window, close.
      {
        path: 'dropbox-auth',
        lazy: async () => ({
          Component: (await import('./screens/OAuthReturnScreens.tsx')).DropboxAuthScreen,
        }),
      },
      {
        path: 'google-auth',
        lazy: async () => ({
          Component: (await import('./screens/OAuthReturnScreens.tsx')).GoogleAuthScreen,
        }),
      },
      {
        path: 'onedrive-auth',
        lazy: async () => ({
          Component: (await import('./screens/OAuthReturnScreens.tsx')).OneDriveAuthScreen,
        }),
      },
      // A share link's page (public, no account): the key is in the fragment (ADR 0012).
      {
        path: 's/:shareId',
        lazy: async () => ({
          Component: (await import('./shares/ShareScreen.tsx')).ShareScreen,
        }),
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
