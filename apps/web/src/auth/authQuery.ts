// Everything /auth reads from its query string, beyond the landing page's mode and e-mail
// (authParams.ts): the step (forgot / reset / two-factor after Google), the remembered location, and what the server's
// redirects bring back (a verified address, a reset token, an error code).
import { safeNext } from './redirect.ts';
import { readAuthParams, type AuthMode } from './authParams.ts';

/** Where the verification link lands (Better Auth adds `error` when the link is bad). */
export const VERIFY_CALLBACK = '/auth?verified=1';
/** Where the reset link lands (Better Auth adds `token`, or `error=INVALID_TOKEN`). */
export const RESET_CALLBACK = '/auth?step=reset';

/** Where a Google sign-in of an account with two-factor on lands (the server's TWO_FACTOR_STEP). */
export const TWO_FACTOR_QUERY = 'two-factor';

export type AuthStep = AuthMode | 'forgot' | 'reset' | 'twoFactor';

export interface AuthQuery {
  step: AuthStep;
  mode: AuthMode;
  email: string;
  /** The same-origin path to go to after signing in. */
  next: string;
  /** The reset token from the mailed link. */
  token: string;
  /** Set when the visitor came from a verification link. */
  verified: boolean;
  /** An error code the server put in a redirect (bad link, refused Google sign-in). */
  error: string;
  /**
   * The token of an invitation link (`/auth?invite=<token>`, issue 33), which opens the sign-up
   * form; '' without one.
   */
  invite: string;
}

export function readAuthQuery(search: URLSearchParams): AuthQuery {
  const { mode, email } = readAuthParams(search);
  const step = search.get('step');
  const invite = search.get('invite')?.trim() ?? '';
  // An invitation link is a sign-up link, unless it says otherwise.
  const chosen = invite && !search.has('mode') ? 'signup' : mode;
  return {
    step:
      step === 'forgot' || step === 'reset'
        ? step
        : step === TWO_FACTOR_QUERY
          ? 'twoFactor'
          : chosen,
    mode: chosen,
    email,
    next: safeNext(search.get('next')),
    token: search.get('token') ?? '',
    verified: search.get('verified') === '1',
    error: search.get('error') ?? '',
    invite,
  };
}

/**
 * The /auth address of a step, keeping the remembered location, a known e-mail and an invitation
 * (so going to sign in and back keeps it).
 */
export function authStepPath(
  step: AuthStep,
  q: Pick<AuthQuery, 'next'> & { invite?: string },
  email = '',
): string {
  const params = new URLSearchParams();
  if (step === 'signup') params.set('mode', 'signup');
  else if (q.invite && step === 'signin') params.set('mode', 'signin');
  else if (step === 'forgot' || step === 'reset') params.set('step', step);
  else if (step === 'twoFactor') params.set('step', TWO_FACTOR_QUERY);
  if (email) params.set('email', email);
  if (q.next !== '/dashboard') params.set('next', q.next);
  if (q.invite && (step === 'signup' || step === 'signin')) params.set('invite', q.invite);
  const s = params.toString();
  return s ? `/auth?${s}` : '/auth';
}
