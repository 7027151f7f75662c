// Typed client of the admin API (issue 33; schemas in invitations.ts). Admin role only: any other
// account gets 403.
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
};
