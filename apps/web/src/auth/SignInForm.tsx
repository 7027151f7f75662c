// Sign-in (docs/product.md §2 Login screen): e-mail and password. An unverified address gets an
// explanation and the resend; an account with two-factor continues to the code step.
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { messages } from '@sealvault/protocol';
import { authClient } from './authClient.ts';
import { authErrorMessage, isEmailNotVerified } from './authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import { signInSchema, type SignInValues } from './authSchemas.ts';
import { ResendVerification } from './ResendVerification.tsx';

export function SignInForm({
  defaultEmail,
  onTwoFactor,
  onForgot,
}: {
  defaultEmail: string;
  onTwoFactor: () => void;
  onForgot: (email: string) => void;
}) {
  const [error, setError] = useState('');
  const [unverified, setUnverified] = useState('');
  const [signedIn, setSignedIn] = useState(false);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: defaultEmail, password: '' },
  });

  const onSubmit = async (values: SignInValues) => {
    setError('');
    setUnverified('');
    try {
      const { data, error: failure } = await authClient.signIn.email(values);
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
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-5">
      {error && <FormMessage kind="error">{error}</FormMessage>}
      {unverified && <ResendVerification email={unverified} />}
      <Field label="Email" error={errors.email?.message}>
        <input
          type="email"
          autoComplete="email"
          className={inputClass}
          placeholder="you@example.com"
          {...register('email')}
        />
      </Field>
      <Field
        label="Password"
        error={errors.password?.message}
        labelAside={
          <button
            type="button"
            onClick={() => onForgot(getValues('email'))}
            className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Forgot password?
          </button>
        }
      >
        <PasswordInput autoComplete="current-password" {...register('password')} />
      </Field>
      <button type="submit" disabled={busy} className={buttonClass('primary', 'lg', 'w-full')}>
        {busy && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {busy ? 'Signing in...' : 'Sign in'}
      </button>
    </form>
  );
}
