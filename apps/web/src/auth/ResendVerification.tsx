// Shown when a sign-in is refused because the e-mail address is not verified yet: what to do,
// and 'Resend verification email' (Better Auth's send-verification-email, rate limited).
import { MailWarning } from 'lucide-react';
import { useState } from 'react';
import { authClient } from './authClient.ts';
import { authErrorMessage } from './authErrors.ts';
import { VERIFY_CALLBACK } from './authQuery.ts';
import { msg, Trans, useTranslation } from '../i18n/i18n.ts';

type State = 'idle' | 'sending' | 'sent' | { error: string };

const FAILED = msg('Could not send the email');

export function ResendVerification({ email }: { email: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('idle');
  const resend = async () => {
    setState('sending');
    try {
      const { error } = await authClient.sendVerificationEmail({
        email,
        callbackURL: VERIFY_CALLBACK,
      });
      setState(error ? { error: authErrorMessage(error, FAILED) } : 'sent');
    } catch {
      setState({ error: FAILED });
    }
  };
  return (
    <div
      role="alert"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700/60 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <p className="flex items-center gap-2 font-semibold">
        <MailWarning aria-hidden="true" className="size-4 shrink-0" />
        {t('Please verify your email first')}
      </p>
      <p className="mt-1.5">
        <Trans
          i18nKey="We sent a verification link to <email>{{email}}</email> when you signed up. Open it, then sign in here. Can't find it? Check your spam folder or send a new one."
          values={{ email }}
          components={{ email: <strong className="break-all" /> }}
        />
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={() => void resend()}
          disabled={state === 'sending'}
          className="rounded-md bg-amber-700 px-3 py-1.5 font-semibold text-white hover:bg-amber-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-600 disabled:opacity-60"
        >
          {state === 'sending' ? t('Sending...') : t('Resend verification email')}
        </button>
        <span aria-live="polite">
          {state === 'sent' && t('A new verification email is on its way.')}
          {typeof state === 'object' && t(state.error)}
        </span>
      </div>
    </div>
  );
}
