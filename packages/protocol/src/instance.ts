// How this server is run (issue 33): who may create an account (the sign-up policy, SIGNUP_MODE)
// and whether the SaaS plans apply (PLANS_MODE). The server tells the web app both in
// GET /api/auth-config (profile.ts); nothing here is a secret.
import { z } from 'zod';

/**
 * open: anyone may sign up (the default). invite: only with an invitation an admin made
 * (invitations.ts). closed: nobody new. In every mode an existing account signs in as before;
 * only creating an account (e-mail sign-up or a first Google sign-in) is gated.
 */
export const signupModeSchema = z.enum(['open', 'invite', 'closed']);
export type SignupMode = z.infer<typeof signupModeSchema>;

/**
 * saas: the plans, prices, trials and checkout of docs/product.md (the default). self-hosted:
 * one's own instance: no pricing, no checkout, no trial; new accounts start on the operator's
 * DEFAULT_PLAN, whose limits come from the server's configuration.
 */
export const plansModeSchema = z.enum(['saas', 'self-hosted']);
export type PlansMode = z.infer<typeof plansModeSchema>;

/** The header that carries an invitation's token with an e-mail sign-up (never in a URL we log). */
export const INVITE_HEADER = 'x-sealvault-invite';

/**
 * Better Auth error codes of the sign-up policy (`{ code, message }` answers, and the `error` of
 * /auth after a refused Google sign-up).
 */
export const SIGNUP_ERROR_CODES = {
  closed: 'SIGNUP_CLOSED',
  inviteRequired: 'INVITE_REQUIRED',
  inviteInvalid: 'INVITE_INVALID',
} as const;

// Ours (the spec shows none for these): the sign-up policy's texts, on the server's refusals and
// on the sign-up screen alike.
export const signupMessages = {
  closed: 'Sign-up is closed on this server. Ask its administrator for an account.',
  inviteRequired:
    'Sign-up on this server is by invitation only. Open the invitation link you were sent.',
  inviteInvalid:
    'This invitation cannot be used: it has expired, was already used or revoked, or was made for another email address.',
  invited: 'You were invited to this server. Create your account below.',
} as const;

/** The /auth error code of a refused sign-up, to its text; undefined for any other code. */
export function signupErrorText(code: string): string | undefined {
  if (code === SIGNUP_ERROR_CODES.closed) return signupMessages.closed;
  if (code === SIGNUP_ERROR_CODES.inviteRequired) return signupMessages.inviteRequired;
  if (code === SIGNUP_ERROR_CODES.inviteInvalid) return signupMessages.inviteInvalid;
  return undefined;
}
