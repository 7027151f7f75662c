// 'Continue with Google' (docs/product.md §2), shown only when the server has Google sign-in configured
// (GET /api/auth-config). The browser leaves for the provider and comes back to `next`; when the
// provider or the server refuses, Better Auth sends it back to /auth with an `error` parameter.
// A first Google sign-in creates an account, so it follows the sign-up policy (issue 33): on the
// sign-up form the button is not offered when sign-up is closed, or by invitation and there is
// none; an invitation's token goes with the request in its header (the server keeps it in the
// OAuth state for the callback).
import { useState } from 'react';
import { messages } from '@sealvault/protocol';
import { authClient, GOOGLE_PROVIDER } from './authClient.ts';
import { pageHint } from './pageHints.ts';
import { useAuthConfig } from './useAccount.ts';
import { loadPolicyTexts } from './usePolicyTexts.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import type { AuthMode } from './authParams.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function GoogleButton({
  mode,
  next,
  onError,
  invite = '',
}: {
  mode: AuthMode;
  /** An invitation's token (/auth?invite=…), '' without one. */
  invite?: string;
  /** Where to land after signing in (already checked to be a same-origin path). */
  next: string;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation();
  const config = useAuthConfig({ afterFirstPaint: true });
  const [busy, setBusy] = useState(false);
  // Until the sign-in options arrive (after the first paint), the sign-in card takes the page's
  // own word on Google ([Note: session hint in Server-Timing]), as index.html's card did: the
  // button is there from the first render, not added (moving the centred card) a moment later.
  // The sign-up card also needs the sign-up policy, which only that answer gives.
  const google = config.data?.google ?? (mode === 'signin' && pageHint('google') === true);
  if (!google) return null;
  const policy = config.data?.signup;
  if (mode === 'signup' && (policy === 'closed' || (policy === 'invite' && !invite))) return null;

  const failed =
    mode === 'signup' ? messages.auth.googleSignupFailed : messages.auth.googleLoginFailed;
  const start = async () => {
    setBusy(true);
    onError('');
    const back = new URLSearchParams({ mode });
    if (next !== '/dashboard') back.set('next', next);
    if (invite) back.set('invite', invite);
    try {
      // The header's name comes with the policy's texts (policyTexts.ts: not at start-up).
      const header = invite ? (await loadPolicyTexts()).INVITE_HEADER : '';
      const { error } = await authClient.signIn.social({
        provider: GOOGLE_PROVIDER,
        callbackURL: next,
        errorCallbackURL: `/auth?${back.toString()}`,
        ...(invite ? { fetchOptions: { headers: { [header]: invite } } } : {}),
      });
      // On success the browser is already on its way to the provider.
      // The spec's words whatever the library says ('Provider not found' and the like mean
      // nothing to a user): 'Google login failed' / 'Google signup failed'.
      if (error) {
        onError(failed);
        setBusy(false);
      }
    } catch {
      onError(failed);
      setBusy(false);
    }
  };

  return (
    <>
      <div className="my-6 flex items-center gap-3 text-xs text-slate-500 uppercase dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
        {t('or')}
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
      </div>
      <button
        type="button"
        onClick={() => void start()}
        disabled={busy}
        className={buttonClass('secondary', 'lg', 'w-full !text-sm')}
      >
        <GoogleMark />
        {t('Continue with Google')}
      </button>
    </>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z"
      />
      <path
        fill="#FBBC05"
        d="M5.84 14.1a6.6 6.6 0 0 1 0-4.2V7.07H2.18a11 11 0 0 0 0 9.86l3.66-2.84z"
      />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15C17.45 2.09 14.97 1 12 1A11 11 0 0 0 2.18 7.07l3.66 2.84C6.71 7.31 9.14 5.38 12 5.38z"
      />
    </svg>
  );
}
