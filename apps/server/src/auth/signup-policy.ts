// [Note: sign-up policy] (issue 33) Who may create an account: SIGNUP_MODE open (anyone), invite
// (only with an invitation an admin made, admin/invitations.repository.ts) or closed (nobody).
// Only creating an account is gated; an existing account signs in as before, by password, passkey
// or Google, in every mode. Two places enforce it:
//
// - Better Auth's user create hook (`gateNewUser`), the one place every new account passes
//   through: an e-mail sign-up and the first Google sign-in alike. In invite mode it uses the
//   invitation there, by one conditional UPDATE, so a token makes one account at most.
// - A before hook on `/sign-up/email` (`guardEmailSignUp`) refuses early with 403, before the
//   password's OPAQUE record is claimed: the create hook's refusal would come too late for a
//   clean answer (Better Auth turns a 403 from inside its sign-up into its "already registered"
//   answer). The check does not spend the invitation: an e-mail that is already registered gets
//   Better Auth's usual answer (no enumeration) and the invitation stays open.
//
// The invitation's token travels in the `x-sealvault-invite` header: with the e-mail sign-up, and
// with `/sign-in/social`, whose before hook puts it in the OAuth state's server context so the
// callback (a plain redirect from Google, carrying no header of ours) still has it.
import { APIError, addOAuthServerContext, getOAuthState } from 'better-auth/api';
import {
  INVITE_HEADER,
  SIGNUP_ERROR_CODES,
  invitationTokenSchema,
  signupMessages,
  type SignupMode,
} from '@sealvault/protocol';
import type { Db } from '../db/database.ts';
import {
  claimInvitation,
  markInvitationUsedBy,
  usableInvitation,
} from '../admin/invitations.repository.ts';
import type { HookContext } from './auth.hooks.ts';

/** What of Better Auth's endpoint context a database hook is given (null outside a request). */
interface EndpointContextLike {
  headers?: Headers | undefined;
  request?: Request | undefined;
}

export interface SignupPolicyDeps {
  db: Db;
  /** The mode in force (config.signup.mode). */
  mode: () => SignupMode;
  now: () => Date;
}

const refusal = (status: 'FORBIDDEN' | 'BAD_REQUEST', reason: keyof typeof SIGNUP_ERROR_CODES) =>
  APIError.from(status, { code: SIGNUP_ERROR_CODES[reason], message: signupMessages[reason] });

/** The invitation token a request carries in our header, if it looks like one. */
function headerToken(ctx: EndpointContextLike | null | undefined): string | undefined {
  const raw = ctx?.headers?.get(INVITE_HEADER) ?? ctx?.request?.headers.get(INVITE_HEADER);
  const parsed = invitationTokenSchema.safeParse(raw?.trim());
  return parsed.success ? parsed.data : undefined;
}

/** The invitation token of this request: its header, or the OAuth flow's server context. */
async function requestToken(ctx: EndpointContextLike | null | undefined): Promise<string | null> {
  const fromHeader = headerToken(ctx);
  if (fromHeader) return fromHeader;
  // Outside a Better Auth request there is no OAuth state to read (and the getter throws).
  const state = await getOAuthState().catch(() => null);
  const parsed = invitationTokenSchema.safeParse(state?.serverContext?.invite);
  return parsed.success ? parsed.data : null;
}

/** hooks.before: `/sign-up/email` is refused at once when the policy will not let it through. */
export async function guardEmailSignUp(ctx: HookContext, deps: SignupPolicyDeps): Promise<void> {
  if (ctx.path !== '/sign-up/email') return;
  const mode = deps.mode();
  if (mode === 'open') return;
  if (mode === 'closed') throw refusal('FORBIDDEN', 'closed');
  const token = headerToken(ctx);
  if (!token) throw refusal('FORBIDDEN', 'inviteRequired');
  const body: unknown = ctx.body;
  const email = body && typeof body === 'object' && 'email' in body ? body.email : undefined;
  if (
    typeof email !== 'string' ||
    !(await usableInvitation(deps.db.kysely, token, email, deps.now()))
  )
    throw refusal('FORBIDDEN', 'inviteInvalid');
}

/** hooks.before: `/sign-in/social` keeps the invitation in the OAuth state for the callback. */
export async function keepInviteForOAuth(ctx: HookContext): Promise<void> {
  if (ctx.path !== '/sign-in/social') return;
  const token = headerToken(ctx);
  if (token) await addOAuthServerContext({ invite: token });
}

/** databaseHooks.user.create.before: a new account only as the policy allows (see the note). */
export async function gateNewUser(
  user: { email: string },
  ctx: EndpointContextLike | null | undefined,
  deps: SignupPolicyDeps,
): Promise<void> {
  const mode = deps.mode();
  if (mode === 'open') return;
  if (mode === 'closed') throw refusal('FORBIDDEN', 'closed');
  const token = await requestToken(ctx);
  if (!token) throw refusal('FORBIDDEN', 'inviteRequired');
  // 400, not 403: a 403 from here would read as "already registered" on the e-mail path.
  if (!(await claimInvitation(deps.db.kysely, token, user.email, deps.now())))
    throw refusal('BAD_REQUEST', 'inviteInvalid');
}

/** databaseHooks.user.create.after: the invitation names the account it made. */
export async function recordInvitationUse(
  user: { id: string },
  ctx: EndpointContextLike | null | undefined,
  deps: SignupPolicyDeps,
): Promise<void> {
  if (deps.mode() !== 'invite') return;
  const token = await requestToken(ctx);
  if (token) await markInvitationUsedBy(deps.db.kysely, token, user.id);
}
