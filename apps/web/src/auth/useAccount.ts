// Server state of the account (TanStack Query): the profile of GET /api/me (name, plan, role)
// and GET /api/auth-config (whether Google sign-in is offered). The landing page reads the
// config at start-up, so the client and its schemas load with the first read ([Note: schema-free
// modules] in packages/protocol/src/index.ts).
import { useQuery } from '@tanstack/react-query';
import { afterPaint } from './afterPaint.ts';

const client = () => import('@sealvault/protocol/client');

export const meQueryKey = ['me'] as const;

export function useProfile(enabled = true) {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: async () => (await client()).api.me(),
    enabled,
  });
}

/**
 * `afterFirstPaint`: a screen whose first paint does not need the config (/auth, where it only
 * adds the Google button) asks for it once that paint is done ([Note: /auth loads after its
 * first paint] in afterPaint.ts).
 */
export function useAuthConfig({ afterFirstPaint = false } = {}) {
  return useQuery({
    queryKey: ['auth-config'],
    queryFn: async () => {
      if (afterFirstPaint) await afterPaint();
      return (await client()).api.authConfig();
    },
    staleTime: Infinity,
  });
}
