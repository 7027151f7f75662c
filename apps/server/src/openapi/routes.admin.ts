// The admin API (issue 33, the admin role only; apps/server/src/admin), for the OpenAPI table
// (api-routes.ts).
import {
  adminAuditQuerySchema,
  adminAuditResponseSchema,
  adminDeletedResponseSchema,
  adminInstanceResponseSchema,
  adminSessionsResponseSchema,
  adminStorageResponseSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  createdInvitationSchema,
  createInvitationRequestSchema,
  invitationResponseSchema,
  invitationsResponseSchema,
  revokedSessionsResponseSchema,
  updateAdminUserRequestSchema,
} from '@sealvault/protocol';
import { json, ok, type ApiRoute } from './route-table.ts';

const admin = (route: Omit<ApiRoute, 'tag' | 'auth'>): ApiRoute => ({
  ...route,
  tag: 'admin',
  auth: 'session',
});

export const ADMIN_ROUTES: readonly ApiRoute[] = [
  admin({
    method: 'post',
    path: '/api/admin/invitations',
    summary: 'Makes a single-use sign-up link (optional e-mail and expiry).',
    body: json(createInvitationRequestSchema),
    responses: { 201: ok('The invitation and its link (shown once).', createdInvitationSchema) },
  }),
  admin({
    method: 'get',
    path: '/api/admin/invitations',
    summary: 'The invitations, newest first (never a token).',
    responses: { 200: ok('The invitations.', invitationsResponseSchema) },
  }),
  admin({
    method: 'delete',
    path: '/api/admin/invitations/:id',
    summary: 'Revokes an invitation not yet used.',
    responses: { 200: ok('The invitation.', invitationResponseSchema) },
  }),
  admin({
    method: 'get',
    path: '/api/admin/users',
    summary: 'The users, searched by part of an e-mail or name, a page at a time.',
    query: adminUsersQuerySchema,
    responses: { 200: ok('A page of users.', adminUsersResponseSchema) },
  }),
  admin({
    method: 'get',
    path: '/api/admin/users/:id',
    summary: 'One user.',
    responses: { 200: ok('The user.', adminUserResponseSchema) },
  }),
  admin({
    method: 'patch',
    path: '/api/admin/users/:id',
    summary: "Changes a user's plan, role or disabled state.",
    body: json(updateAdminUserRequestSchema),
    responses: { 200: ok('The user.', adminUserResponseSchema) },
  }),
  admin({
    method: 'delete',
    path: '/api/admin/users/:id',
    summary: 'Deletes a user with all their data.',
    responses: { 200: ok('Deleted.', adminDeletedResponseSchema) },
  }),
  admin({
    method: 'delete',
    path: '/api/admin/users/:id/two-factor',
    summary: "Resets a user's second factor.",
    responses: { 200: ok('The user.', adminUserResponseSchema) },
  }),
  admin({
    method: 'get',
    path: '/api/admin/users/:id/sessions',
    summary: "A user's sessions.",
    responses: { 200: ok('The sessions.', adminSessionsResponseSchema) },
  }),
  admin({
    method: 'delete',
    path: '/api/admin/users/:id/sessions',
    summary: 'Signs a user out everywhere.',
    responses: { 200: ok('How many sessions ended.', revokedSessionsResponseSchema) },
  }),
  admin({
    method: 'delete',
    path: '/api/admin/users/:id/sessions/:sessionId',
    summary: 'Ends one session of a user.',
    responses: { 200: ok('How many sessions ended.', revokedSessionsResponseSchema) },
  }),
  admin({
    method: 'get',
    path: '/api/admin/storage',
    summary: 'Storage used per user and in total.',
    responses: { 200: ok('The storage used.', adminStorageResponseSchema) },
  }),
  admin({
    method: 'get',
    path: '/api/admin/instance',
    summary: "The server's version, health and policies.",
    responses: { 200: ok('The instance.', adminInstanceResponseSchema) },
  }),
  admin({
    method: 'get',
    path: '/api/admin/audit',
    summary: 'The audit log of admin actions, newest first, a page at a time.',
    query: adminAuditQuerySchema,
    responses: { 200: ok('A page of the audit log.', adminAuditResponseSchema) },
  }),
];
