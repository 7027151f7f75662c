// Sign-in (docs/product.md §2 Login screen): e-mail and password. An unverified address gets an
// explanation and the resend; an account with two-factor continues to the code step. Where the
// browser has passkeys, 'Sign in with a passkey' opens its dialog, and the e-mail field's autofill
// offers this site's passkeys too (conditional mediation; issue 30). A passkey sign-in needs no
// second step.
import { KeyRound, Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { messages } from '@sealvault/protocol';
import { authClient } from './authClient.ts';
import { authErrorMessage, isEmailNotVerified } from './authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import type { SignInValues } from './authSchemas.ts';
import { afterPaint } from './afterPaint.ts';
import { lazyResolver } from './lazyResolver.ts';
import { passkeysSupported } from './passkeySupport.ts';
import { ResendVerification } from './ResendVerification.tsx';
import { useTranslation } from '../i18n/i18n.ts';

// [Note: auth forms without zod at start-up] (lazyResolver.ts): the schema, the OPAQUE login and
// the passkey ceremonies load when used.
const resolver = lazyResolver(async () => (await import('./authResolvers.ts')).signInResolver);
const passkeys = () => import('./passkeys.ts');
/** Loads what a submit needs while the user types. */
const warmUp = () => {
  resolver.preload();
  import('./opaque.ts').catch(() => {}); // the submit loads it again and reports a failure
};
type Passkeys = Awaited<ReturnType<typeof passkeys>>;

export function SignInForm({
  defaultEmail,
  onTwoFactor,
  onForgot,
}: {
  defaultEmail: string;
  onTwoFactor: () => void;
  onForgot: (email: string) => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState('');
  const [unverified, setUnverified] = useState('');
  const [signedIn, setSignedIn] = useState(false);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const withPasskeys = passkeysSupported();

  const passkeyDone = (pk: Passkeys, err: unknown, quietCancel: boolean) => {
    if (!err) {
      setSignedIn(true);
      return;
    }
    const failure =
      err instanceof pk.PasskeyError ? err : new pk.PasskeyError(messages.auth.loginFailed);
    // The autofill's wait ends without a word when the browser ends it (no passkey for this site,
    // another ceremony, the page moving on); only the server's answer to a passkey picked shows.
    if (quietCancel && failure.ceremony) return;
    setError(failure.message);
  };

  // The autofill: a passkey picked in the e-mail field's suggestions signs in. It waits until the
  // user picks one, and ends when the button's ceremony starts or the form goes away.
  useEffect(() => {
    if (!withPasskeys) return;
    let live = true;
    let started: Passkeys | undefined;
    // Not before the card is painted ([Note: /auth loads after its first paint]).
    void afterPaint()
      .then(passkeys)
      .then(async (pk) => ((await pk.browserSupportsWebAuthnAutofill()) ? pk : null))
      .then((pk) => {
        if (!pk || !live) return;
        started = pk;
        pk.signInWithPasskey({ autofill: true }).then(
          () => live && passkeyDone(pk, null, true),
          (err: unknown) => live && passkeyDone(pk, err, true),
        );
      })
      .catch(() => {}); // no autofill; the button still offers passkeys
    return () => {
      live = false;
      started?.cancelAutofill();
    };
  }, [withPasskeys]);

  const passkey = async () => {
    setError('');
    setUnverified('');
    setPasskeyBusy(true);
    try {
      const pk = await passkeys();
      try {
        await pk.signInWithPasskey();
        passkeyDone(pk, null, false);
      } catch (err) {
        passkeyDone(pk, err, false);
      }
    } catch {
      setError(messages.auth.loginFailed); // the module did not load
    } finally {
      setPasskeyBusy(false);
    }
  };
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({
    resolver,
    defaultValues: { email: defaultEmail, password: '' },
  });

  const onSubmit = async (values: SignInValues) => {
    setError('');
    setUnverified('');
    try {
      // The password stays here: a ticket of an OPAQUE login goes in its place (auth/opaque.ts).
      const { signInProof } = await import('./opaque.ts');
      const proof = await signInProof(values.email, values.password);
      if ('error' in proof) {
        setError(authErrorMessage(proof.error, messages.auth.loginFailed));
        return;
      }
      const { data, error: failure } = await authClient.signIn.email(
        { email: values.email, password: proof.password },
        { headers: proof.headers },
      );
      if (failure) {
        if (isEmailNotVerified(failure)) setUnverified(values.email);
        else setError(authErrorMessage(failure, messages.auth.loginFailed));
        return;
      }
      if (data && 'twoFactorRedirect' in data && data.twoFactorRedirect) {
        onTwoFactor();
        return;
      }
      // The session store refetches; the screen moves on once it reports the session.
      setSignedIn(true);
    } catch {
      setError(messages.auth.loginFailed);
    }
  };

  const busy = isSubmitting || signedIn;
  return (
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      onFocus={warmUp}
      className="space-y-5"
    >
      {error && <FormMessage kind="error">{t(error)}</FormMessage>}
      {unverified && <ResendVerification email={unverified} />}
      <Field label={t('Email')} error={errors.email?.message && t(errors.email.message)}>
        <input
          type="email"
          autoComplete={withPasskeys ? 'email webauthn' : 'email'}
          className={inputClass}
          placeholder={t('you@example.com')}
          {...register('email')}
        />
      </Field>
      <Field
        label={t('Password')}
        error={errors.password?.message && t(errors.password.message)}
        labelAside={
          <button
            type="button"
            onClick={() => onForgot(getValues('email'))}
            className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            {t('Forgot password?')}
          </button>
        }
      >
        <PasswordInput autoComplete="current-password" {...register('password')} />
      </Field>
      <button type="submit" disabled={busy} className={buttonClass('primary', 'lg', 'w-full')}>
        {busy && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {busy ? t('Signing in...') : t('Sign in')}
      </button>
      {withPasskeys && (
        <button
          type="button"
          onClick={() => void passkey()}
          disabled={busy || passkeyBusy}
          className={buttonClass('secondary', 'lg', 'w-full !text-sm')}
        >
          {passkeyBusy ? (
            <Loader2 aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <KeyRound aria-hidden="true" className="size-4" />
          )}
          {t('Sign in with a passkey')}
        </button>
      )}
    </form>
  );
}
