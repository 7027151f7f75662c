// Sign-up (docs/product.md §2 Sign-up screen, §5 validation): full name, e-mail, password with show/hide,
// confirmation. On success the spec's message asks the user to verify their e-mail; no session
// starts until they do (the server requires a verified address). The server's sign-up policy
// (issue 33, GET /api/auth-config): closed shows why and no form; invite shows the form only with
// an invitation's token (from /auth?invite=…), which goes with the sign-up in its header.
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { messages, type SignupMode } from '@sealvault/protocol';
import { authClient } from './authClient.ts';
import { authErrorMessage } from './authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import type { SignUpValues } from './authSchemas.ts';
import { lazyResolver } from './lazyResolver.ts';
import { loadPolicyTexts, usePolicyTexts } from './usePolicyTexts.ts';
import { VERIFY_CALLBACK } from './authQuery.ts';
import { Trans, useTranslation } from '../i18n/i18n.ts';

// [Note: auth forms without zod at start-up] (lazyResolver.ts): the schema, the OPAQUE
// registration and the sign-up policy's texts load when used.
const resolver = lazyResolver(async () => (await import('./authResolvers.ts')).signUpResolver);
/** Loads what a submit needs while the user types. */
const warmUp = () => {
  resolver.preload();
  import('./opaque.ts').catch(() => {}); // the submit loads it again and reports a failure
};

export function SignUpForm({
  defaultEmail,
  signup = 'open',
  invite = '',
}: {
  defaultEmail: string;
  /** The server's sign-up policy. */
  signup?: SignupMode;
  /** The invitation's token, '' without one. */
  invite?: string;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState('');
  const [createdFor, setCreatedFor] = useState('');
  // Until its texts are here the policy shows as open, as it does until the server has said.
  const texts = usePolicyTexts(signup !== 'open');
  const policy = texts ? signup : 'open';
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({
    resolver,
    defaultValues: { fullName: '', email: defaultEmail, password: '', confirmPassword: '' },
  });

  const onSubmit = async (values: SignUpValues) => {
    setError('');
    try {
      // The password stays here: the token of its OPAQUE record goes in its place (auth/opaque.ts).
      const { newPasswordToken } = await import('./opaque.ts');
      const record = await newPasswordToken(values.password);
      if ('error' in record) {
        setError(authErrorMessage(record.error, messages.auth.registrationFailed));
        return;
      }
      const { error: failure } = await authClient.signUp.email({
        name: values.fullName,
        email: values.email,
        password: record.token,
        callbackURL: VERIFY_CALLBACK,
        ...(invite
          ? { fetchOptions: { headers: { [(await loadPolicyTexts()).INVITE_HEADER]: invite } } }
          : {}),
      });
      if (failure) setError(authErrorMessage(failure, messages.auth.registrationFailed));
      else setCreatedFor(values.email);
    } catch {
      setError(messages.auth.registrationFailed);
    }
  };

  if (createdFor) {
    return (
      <div role="status" className="text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-emerald-500" />
        <p className="mt-4 font-medium text-slate-900 dark:text-white">
          {t(messages.auth.accountCreated)}
        </p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          <Trans
            i18nKey="We sent the link to <email>{{email}}</email>."
            values={{ email: createdFor }}
            components={{ email: <strong className="break-all" /> }}
          />
        </p>
      </div>
    );
  }

  if (texts && (policy === 'closed' || (policy === 'invite' && !invite))) {
    return (
      <FormMessage kind="info">
        {t(policy === 'closed' ? texts.signupMessages.closed : texts.signupMessages.inviteRequired)}
      </FormMessage>
    );
  }

  return (
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      onFocus={warmUp}
      className="space-y-5"
    >
      {texts && policy === 'invite' && (
        <FormMessage kind="info">{t(texts.signupMessages.invited)}</FormMessage>
      )}
      {error && <FormMessage kind="error">{t(error)}</FormMessage>}
      <Field label={t('Full name')} error={errors.fullName?.message && t(errors.fullName.message)}>
        <input
          type="text"
          autoComplete="name"
          className={inputClass}
          placeholder="Ada Lovelace"
          {...register('fullName')}
        />
      </Field>
      <Field label={t('Email')} error={errors.email?.message && t(errors.email.message)}>
        <input
          type="email"
          autoComplete="email"
          className={inputClass}
          placeholder={t('you@example.com')}
          {...register('email')}
        />
      </Field>
      <Field
        label={t('Password')}
        error={errors.password?.message && t(errors.password.message)}
        hint={t('At least 6 characters')}
      >
        <PasswordInput autoComplete="new-password" {...register('password')} />
      </Field>
      <Field
        label={t('Confirm password')}
        error={errors.confirmPassword?.message && t(errors.confirmPassword.message)}
      >
        <PasswordInput
          autoComplete="new-password"
          toggleLabel={t('password confirmation')}
          {...register('confirmPassword')}
        />
      </Field>
      <button
        type="submit"
        disabled={isSubmitting}
        className={buttonClass('primary', 'lg', 'w-full')}
      >
        {isSubmitting && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {isSubmitting ? t('Creating account...') : t('Create account')}
      </button>
    </form>
  );
}
