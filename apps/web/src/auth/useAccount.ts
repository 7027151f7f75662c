// Server state of the account (TanStack Query): the profile of GET /api/me (name, plan, role)
// and GET /api/auth-config (whether Google sign-in is offered).
import { useQuery } from '@tanstack/react-query';
import { api } from '@sealvault/protocol';

export const meQueryKey = ['me'] as const;

export function useProfile(enabled = true) {
  return useQuery({ queryKey: meQueryKey, queryFn: () => api.me(), enabled });
}

export function useAuthConfig() {
  return useQuery({
    queryKey: ['auth-config'],
    queryFn: () => api.authConfig(),
    staleTime: Infinity,
  });
}
