// Invitations (issue 33): single-use sign-up links an admin makes under /api/admin/invitations,
// each optionally bound to one e-mail and optionally expiring. The server keeps only the SHA-256
// of a token; the token is shown once, in the answer that made it.
import { z } from 'zod';

/** An invitation's token: 32 random bytes, base64url. */
export const invitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** The longest an invitation may stay open (a year), in hours. */
export const MAX_INVITATION_HOURS = 24 * 365;

/** POST /api/admin/invitations. Without `expires_in_hours` the invitation does not expire. */
export const createInvitationRequestSchema = z.strictObject({
  email: z.email().max(254).optional(),
  expires_in_hours: z.number().int().min(1).max(MAX_INVITATION_HOURS).optional(),
});
export type CreateInvitationRequest = z.infer<typeof createInvitationRequestSchema>;

export const invitationStatusSchema = z.enum(['open', 'used', 'expired', 'revoked']);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  /** The only e-mail that may use it (lower-case), or null: anyone with the link. */
  email: z.string().nullable(),
  status: invitationStatusSchema,
  created_by: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  used_at: z.string().nullable(),
  /** The account made with it, while that account exists. */
  used_by: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** The answer to a new invitation: its token and link, shown once (only a hash is kept). */
export const createdInvitationSchema = z.object({
  invitation: invitationSchema,
  token: invitationTokenSchema,
  /** `$PUBLIC_URL/auth?invite=<token>`: the sign-up screen in invite mode. */
  url: z.string(),
});
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;

export const invitationsResponseSchema = z.object({ invitations: z.array(invitationSchema) });
export type InvitationsResponse = z.infer<typeof invitationsResponseSchema>;

export const invitationResponseSchema = z.object({ invitation: invitationSchema });
export type InvitationResponse = z.infer<typeof invitationResponseSchema>;
