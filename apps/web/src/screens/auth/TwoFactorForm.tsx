// The second step of a sign-in with two-factor: the 6-digit code from the authenticator app, or
// one of the backup codes. Better Auth holds the half-finished sign-in in a short-lived cookie.
import { Loader2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { messages } from '@sealvault/protocol';
import { authClient } from '../../auth/authClient.ts';
import { authErrorMessage } from '../../auth/authErrors.ts';
import { buttonClass } from '../../components/buttonStyles.ts';
import { Field, FormMessage } from '../../components/Field.tsx';
import { inputClass } from '../../components/PasswordInput.tsx';
import { totpCode } from './authSchemas.ts';

export function TwoFactorForm({
  onCancel,
  offerTrust = true,
}: {
  onCancel: () => void;
  /**
   * 'Trust this device' is offered after a password sign-in only: the server asks a Google
   * sign-in for the code every time (auth.hooks.ts, secondFactorAfterOAuth).
   */
  offerTrust?: boolean;
}) {
  const [useBackup, setUseBackup] = useState(false);
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [fieldError, setFieldError] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    let value = code.trim();
    if (!useBackup) {
      const parsed = totpCode.safeParse(code);
      if (!parsed.success) {
        setFieldError(parsed.error.issues[0]?.message ?? 'Enter the code');
        return;
      }
      value = parsed.data;
    } else if (!value) {
      setFieldError('Enter one of your backup codes');
      return;
    }
    setFieldError('');
    setBusy(true);
    try {
      const { error: failure } = useBackup
        ? await authClient.twoFactor.verifyBackupCode({ code: value, trustDevice: trust })
        : await authClient.twoFactor.verifyTotp({ code: value, trustDevice: trust });
      // On success the session store refetches and the screen moves on; stay busy until then.
      if (failure) {
        setError(authErrorMessage(failure, messages.auth.loginFailed));
        setBusy(false);
      }
    } catch {
      setError(messages.auth.loginFailed);
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
      {error && <FormMessage kind="error">{error}</FormMessage>}
      <Field
        key={useBackup ? 'backup' : 'totp'}
        label={useBackup ? 'Backup code' : 'Authentication code'}
        error={fieldError}
        hint={
          useBackup
            ? 'Each backup code works once.'
            : 'The 6-digit code your authenticator app shows for SealVault.'
        }
      >
        <input
          type="text"
          inputMode={useBackup ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          className={`${inputClass} font-mono tracking-widest`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      {offerTrust && (
        <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <input
            type="checkbox"
            checked={trust}
            onChange={(e) => setTrust(e.target.checked)}
            className="size-4 rounded border-slate-300 accent-indigo-600"
          />
          Trust this device for 30 days
        </label>
      )}
      <button type="submit" disabled={busy} className={buttonClass('primary', 'lg', 'w-full')}>
        {busy && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {busy ? 'Verifying...' : 'Verify'}
      </button>
      <div className="flex justify-between text-sm">
        <button
          type="button"
          onClick={() => {
            setUseBackup((b) => !b);
            setCode('');
            setFieldError('');
          }}
          className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {useBackup ? 'Use authenticator code' : 'Use a backup code'}
        </button>
        <button
          type="button"
          onClick={onCancel}
          className="text-slate-600 hover:underline dark:text-slate-400"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
