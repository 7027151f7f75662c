// The admin console's server state (issue 33): TanStack Query over the protocol's typed admin
// client. Every change refreshes the lists it touches and the audit log it wrote to.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi, type UpdateAdminUserRequest } from '@sealvault/protocol';

export const adminKeys = {
  all: ['admin'] as const,
  users: (q: string, page: number) => ['admin', 'users', q, page] as const,
  sessions: (id: string) => ['admin', 'sessions', id] as const,
  invitations: ['admin', 'invitations'] as const,
  storage: ['admin', 'storage'] as const,
  instance: ['admin', 'instance'] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
};

export const ADMIN_PAGE_SIZE = 25;

export function useAdminUsers(q: string, page: number) {
  return useQuery({
    queryKey: adminKeys.users(q, page),
    queryFn: () => adminApi.users({ q: q || undefined, page, per_page: ADMIN_PAGE_SIZE }),
    placeholderData: (previous) => previous,
  });
}

/** Refreshes everything of the console: an action shows in the lists and in the audit log. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
}

export function useUpdateUser() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateAdminUserRequest }) =>
      adminApi.updateUser(id, input),
    onSettled: refresh,
  });
}

export function useDeleteUser() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: string) => adminApi.deleteUser(id), onSettled: refresh });
}

export function useResetTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => adminApi.resetTwoFactor(id),
    onSettled: refresh,
  });
}

export function useUserSessions(id: string, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.sessions(id),
    queryFn: () => adminApi.sessions(id),
    enabled,
  });
}

export function useRevokeSessions() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, sessionId }: { id: string; sessionId?: string }) =>
      sessionId ? adminApi.revokeSession(id, sessionId) : adminApi.revokeSessions(id),
    onSettled: refresh,
  });
}

export function useInvitations() {
  return useQuery({ queryKey: adminKeys.invitations, queryFn: () => adminApi.invitations() });
}

export function useCreateInvitation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { email?: string; expires_in_hours?: number }) =>
      adminApi.createInvitation(input),
    onSettled: refresh,
  });
}

export function useRevokeInvitation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => adminApi.revokeInvitation(id),
    onSettled: refresh,
  });
}

export function useAdminStorage() {
  return useQuery({ queryKey: adminKeys.storage, queryFn: () => adminApi.storage() });
}

export function useAdminInstance() {
  return useQuery({ queryKey: adminKeys.instance, queryFn: () => adminApi.instance() });
}

export function useAdminAudit(page: number) {
  return useQuery({
    queryKey: adminKeys.audit(page),
    queryFn: () => adminApi.audit({ page, per_page: ADMIN_PAGE_SIZE }),
    placeholderData: (previous) => previous,
  });
}
