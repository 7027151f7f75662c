// Typed client of the admin API (issue 33; schemas in invitations.ts and admin.ts). Admin role
// only: any other account gets 403.
import {
  adminAuditResponseSchema,
  adminDeletedResponseSchema,
  adminInstanceResponseSchema,
  adminSessionsResponseSchema,
  adminStorageResponseSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
  revokedSessionsResponseSchema,
  type AdminAuditQuery,
  type AdminUsersQuery,
  type UpdateAdminUserRequest,
} from './admin.ts';
import { jsonInit, requestJson } from './client.ts';
import {
  createdInvitationSchema,
  invitationResponseSchema,
  invitationsResponseSchema,
  type CreateInvitationRequest,
} from './invitations.ts';

export const adminApi = {
  createInvitation: (input: CreateInvitationRequest, f?: typeof fetch) =>
    requestJson(createdInvitationSchema, '/api/admin/invitations', jsonInit('POST', input), f),
  invitations: (f?: typeof fetch) =>
    requestJson(invitationsResponseSchema, '/api/admin/invitations', {}, f),
  revokeInvitation: (id: string, f?: typeof fetch) =>
    requestJson(
      invitationResponseSchema,
      `/api/admin/invitations/${encodeURIComponent(id)}`,
      { method: 'DELETE' },
      f,
    ),
  users: (query: AdminUsersQuery = {}, f?: typeof fetch) =>
    requestJson(adminUsersResponseSchema, `/api/admin/users${queryString(query)}`, {}, f),
  user: (id: string, f?: typeof fetch) => requestJson(adminUserResponseSchema, userPath(id), {}, f),
  updateUser: (id: string, input: UpdateAdminUserRequest, f?: typeof fetch) =>
    requestJson(adminUserResponseSchema, userPath(id), jsonInit('PATCH', input), f),
  deleteUser: (id: string, f?: typeof fetch) =>
    requestJson(adminDeletedResponseSchema, userPath(id), { method: 'DELETE' }, f),
  resetTwoFactor: (id: string, f?: typeof fetch) =>
    requestJson(adminUserResponseSchema, `${userPath(id)}/two-factor`, { method: 'DELETE' }, f),
  sessions: (id: string, f?: typeof fetch) =>
    requestJson(adminSessionsResponseSchema, `${userPath(id)}/sessions`, {}, f),
  revokeSessions: (id: string, f?: typeof fetch) =>
    requestJson(revokedSessionsResponseSchema, `${userPath(id)}/sessions`, { method: 'DELETE' }, f),
  revokeSession: (id: string, sessionId: string, f?: typeof fetch) =>
    requestJson(
      revokedSessionsResponseSchema,
      `${userPath(id)}/sessions/${encodeURIComponent(sessionId)}`,
      { method: 'DELETE' },
      f,
    ),
  storage: (f?: typeof fetch) =>
    requestJson(adminStorageResponseSchema, '/api/admin/storage', {}, f),
  instance: (f?: typeof fetch) =>
    requestJson(adminInstanceResponseSchema, '/api/admin/instance', {}, f),
  audit: (query: AdminAuditQuery = {}, f?: typeof fetch) =>
    requestJson(adminAuditResponseSchema, `/api/admin/audit${queryString(query)}`, {}, f),
};

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

function queryString(query: AdminUsersQuery | AdminAuditQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}
