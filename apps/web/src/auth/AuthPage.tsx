// /auth (docs/product.md §2): sign in and sign up, toggling between the two modes, plus the steps that hang
// off them: 'Forgot password?', the reset page of the mailed link, and the two-factor code.
// A signed-in visitor goes on to the remembered location (or /dashboard).
import { ArrowLeft } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLoaderData, useNavigate, useSearchParams } from 'react-router';
import { messages } from '@sealvault/protocol';
import { useAuthConfig } from './useAccount.ts';
import { useAuthState } from './useAuthState.ts';
import { Logo } from '../components/Logo.tsx';
import { FormMessage } from '../components/Field.tsx';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';
import { authStepPath, readAuthQuery, type AuthQuery } from './authQuery.ts';
import { ForgotPasswordForm } from './ForgotPasswordForm.tsx';
import { GoogleButton } from './GoogleButton.tsx';
import { ResetPasswordForm } from './ResetPasswordForm.tsx';
import { SignInForm } from './SignInForm.tsx';
import { SignUpForm } from './SignUpForm.tsx';
import { TwoFactorForm } from './TwoFactorForm.tsx';
import type { authPageLoader } from './usePolicyTexts.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';

const headings = {
  signin: { title: msg('Welcome back'), subtitle: msg('Sign in to your vault space') },
  signup: { title: msg('Create account'), subtitle: msg('Start securing your files today') },
  forgot: {
    title: msg('Reset your password'),
    subtitle: msg('Enter your email and we will send you a link to choose a new password.'),
  },
  reset: {
    title: msg('Choose a new password'),
    subtitle: msg('Set the password you will sign in with from now on.'),
  },
  twoFactor: {
    title: msg('Two-factor authentication'),
    subtitle: msg('Enter the code from your authenticator app to finish signing in.'),
  },
} as const;

/** What Google sign-in refusals mean for the user, beyond the spec's short message. */
const googleErrorDetail: Record<string, string> = {
  account_not_linked: msg(
    'An account with this email exists but its address is not verified yet. Verify it from the email we sent, then continue with Google.',
  ),
};

/** The notice a server redirect brought back, if any. */
function redirectNotice(
  q: AuthQuery,
  /** A disabled account's or the sign-up policy's text for `q.error` (the route's loader). */
  policyDetail: string | null,
): { kind: 'error' | 'success'; text: string; detail?: string | undefined } | null {
  if (q.verified) {
    return q.error
      ? {
          kind: 'error',
          text: msg('This verification link is invalid or has expired. Sign in to get a new one.'),
        }
      : { kind: 'success', text: msg('Your email is verified. Sign in to continue.') };
  }
  if (q.error && (q.step === 'signin' || q.step === 'signup')) {
    const text =
      q.step === 'signup' ? messages.auth.googleSignupFailed : messages.auth.googleLoginFailed;
    // A disabled account, or a first Google sign-in the sign-up policy refused, says why (issue 33).
    return { kind: 'error', text, detail: googleErrorDetail[q.error] ?? policyDetail ?? undefined };
  }
  return null;
}

export function AuthPage() {
  const [search] = useSearchParams();
  const q = readAuthQuery(search);
  const policyDetail = useLoaderData<typeof authPageLoader>();
  const auth = useAuthState();
  const config = useAuthConfig({ afterFirstPaint: true });
  const navigate = useNavigate();
  const { t } = useTranslation();
  const [twoFactor, setTwoFactor] = useState(false);
  const [googleError, setGoogleError] = useState({ step: '', text: '' });
  const step = twoFactor && q.step === 'signin' ? 'twoFactor' : q.step;

  // Move focus to the heading when the step changes, so screen readers announce the new form.
  const heading = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(step);
  useEffect(() => {
    if (step !== firstStep.current) heading.current?.focus();
    firstStep.current = step;
  }, [step]);

  if (auth.status === 'signedIn' && step !== 'reset') return <Navigate to={q.next} replace />;

  const text = headings[step];
  const notice = step === 'twoFactor' ? null : redirectNotice(q, policyDetail);
  const go = (to: Parameters<typeof authStepPath>[0], email = '') =>
    void navigate(authStepPath(to, q, email));

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 dark:bg-slate-950">
      <header className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link
          to="/"
          aria-label={t('SealVault home')}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
        >
          <Logo />
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-10">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h1
            ref={heading}
            tabIndex={-1}
            className="text-2xl font-bold tracking-tight text-slate-900 focus:outline-none dark:text-white"
          >
            {t(text.title)}
          </h1>
          <p className="mt-2 text-slate-600 dark:text-slate-400">{t(text.subtitle)}</p>

          <div className="mt-6 space-y-5">
            {notice && (
              <FormMessage kind={notice.kind}>
                <p className="font-medium">{t(notice.text)}</p>
                {notice.detail && <p className="mt-1">{t(notice.detail)}</p>}
              </FormMessage>
            )}
            {googleError.text && googleError.step === step && (
              <FormMessage kind="error">{t(googleError.text)}</FormMessage>
            )}
            {step === 'signin' && (
              <SignInForm
                defaultEmail={q.email}
                onTwoFactor={() => setTwoFactor(true)}
                onForgot={(email) => go('forgot', email)}
              />
            )}
            {step === 'signup' && (
              <SignUpForm defaultEmail={q.email} signup={config.data?.signup} invite={q.invite} />
            )}
            {step === 'forgot' && <ForgotPasswordForm defaultEmail={q.email} />}
            {step === 'reset' && (
              <ResetPasswordForm
                token={q.token}
                linkError={q.error !== ''}
                onRequestNew={() => go('forgot')}
                onDone={() => go('signin')}
              />
            )}
            {step === 'twoFactor' && (
              <TwoFactorForm
                offerTrust={q.step !== 'twoFactor'}
                onCancel={() => (q.step === 'twoFactor' ? go('signin') : setTwoFactor(false))}
              />
            )}
          </div>

          {(step === 'signin' || step === 'signup') && (
            <>
              <GoogleButton
                mode={step}
                invite={q.invite}
                next={q.next}
                onError={(text) => setGoogleError({ step, text })}
              />
              <p className="mt-6 text-center text-sm">
                <Link
                  to={authStepPath(step === 'signin' ? 'signup' : 'signin', q, q.email)}
                  className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
                >
                  {step === 'signin'
                    ? t("Don't have an account? Sign up")
                    : t('Already have an account? Sign in')}
                </Link>
              </p>
            </>
          )}
          {(step === 'forgot' || step === 'reset') && (
            <p className="mt-6 text-center text-sm">
              <Link
                to={authStepPath('signin', q)}
                className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              >
                {t('Back to sign in')}
              </Link>
            </p>
          )}
        </div>
      </main>
      <p className="pb-8 text-center">
        <Link
          to="/"
          className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          {t('Back to home')}
        </Link>
      </p>
    </div>
  );
}
