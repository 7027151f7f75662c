// Account settings: deleting the account. The password confirms it (a Google-only account
// confirms with a recent sign-in instead); the server removes the user and everything the user
// owns, and the visitor is signed out and sent to the landing page.
import { zodResolver } from '@hookform/resolvers/zod';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, userMessage } from '@sealvault/protocol';
import { authErrorMessage } from '../auth/authErrors.ts';
import { passwordProof } from '../auth/opaque.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { markSigningOut } from '../shell/useSignOut.ts';
import { Panel } from './Panel.tsx';

const passwordSchema = z.object({ password: z.string().min(1, msg('Enter your password')) });
// A Google-only account confirms with a recent sign-in: no field to fill.
const noPasswordSchema = z.object({ password: z.string() });
type DeleteValues = z.infer<typeof passwordSchema>;

export function DeleteAccountPanel({ hasPassword }: { hasPassword: boolean | undefined }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Stays on once the account is gone, while the page is replaced.
  const [leaving, setLeaving] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DeleteValues>({
    resolver: zodResolver(hasPassword === false ? noPasswordSchema : passwordSchema),
    defaultValues: { password: '' },
  });
  const busy = isSubmitting || leaving;

  const close = () => {
    setOpen(false);
    reset();
  };

  const submit = async ({ password }: DeleteValues) => {
    try {
      // A ticket of an OPAQUE login stands in for the password (auth/opaque.ts).
      const proof = hasPassword === false ? null : await passwordProof(password);
      if (proof && 'error' in proof) {
        setError('root', {
          message: authErrorMessage(proof.error, t('Could not delete your account')),
        });
        return;
      }
      await api.deleteMe(proof ? { password: proof.password } : {});
    } catch (err) {
      setError('root', { message: userMessage(err, t('Could not delete your account')) });
      return;
    }
    setLeaving(true);
    // A full load of the landing page: nothing of the account stays in memory (cached queries,
    // the crypto Worker). Until it, the session guard keeps the screen still even if the session
    // store notices the ended session first ([Note: sign-out under way] in shell/useSignOut.ts).
    markSigningOut();
    window.location.replace('/');
  };

  return (
    <Panel
      title={t('Delete account')}
      // Last on the settings page, after every section: not part of the one above it.
      level={2}
      tone="danger"
      description={t(
        'Deletes your account, your vaults and everything in them. This cannot be undone.',
      )}
      icon={<Trash2 className="size-5" />}
    >
      <button type="button" onClick={() => setOpen(true)} className={buttonClass('danger')}>
        {t('Delete account')}
      </button>
      <Modal
        open={open}
        onOpenChange={(o) => !o && close()}
        size="sm"
        closable={!busy}
        title={t('Delete your account?')}
        description={t('Your vaults, files and secrets are removed for good.')}
        footer={
          <DialogFooter
            onCancel={close}
            submit={t('Delete account')}
            busyText={t('Deleting...')}
            busy={busy}
            tone="danger"
            form="delete-account"
          />
        }
      >
        <form
          id="delete-account"
          noValidate
          onSubmit={(e) => void handleSubmit(submit)(e)}
          className="space-y-4"
        >
          {errors.root?.message && <FormMessage kind="error">{t(errors.root.message)}</FormMessage>}
          {hasPassword === false ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t(
                'You sign in with Google. If you signed in more than 10 minutes ago, sign out and in again first.',
              )}
            </p>
          ) : (
            <Field
              label={t('Password')}
              error={errors.password?.message && t(errors.password.message)}
            >
              <PasswordInput autoComplete="current-password" autoFocus {...register('password')} />
            </Field>
          )}
        </form>
      </Modal>
    </Panel>
  );
}
