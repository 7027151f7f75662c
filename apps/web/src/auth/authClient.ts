// The one Better Auth client of the web app (server: apps/server/src/auth/auth.ts, basePath
// /api/auth on the same origin). Google is a genericOAuth provider on the server, which Better
// Auth 1.7 registers as a social provider, so it is reached through signIn.social.
import { createAuthClient } from 'better-auth/react';
import { twoFactorClient } from 'better-auth/client/plugins';
import { sessionFetch } from './sessionPrefetch.ts';

export const authClient = createAuthClient({
  basePath: '/api/auth',
  // The page's first session check may already be on its way ([Note: early session check]).
  fetchOptions: { customFetchImpl: sessionFetch },
  plugins: [twoFactorClient()],
});

export type AuthSession = typeof authClient.$Infer.Session;
export type AuthUser = AuthSession['user'];

/** The provider id the server gives Google sign-in (GOOGLE_PROVIDER_ID in auth.ts). */
export const GOOGLE_PROVIDER = 'google';
