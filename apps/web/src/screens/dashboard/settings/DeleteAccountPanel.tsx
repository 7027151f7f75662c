// Account settings: deleting the account. The password confirms it (a Google-only account
// confirms with a recent sign-in instead); the server removes the user and everything the user
// owns, and the visitor is signed out and sent to the landing page.
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { api, userMessage } from '@sealvault/protocol';
import { buttonClass } from '../../../components/buttonStyles.ts';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { Field, FormMessage } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { PasswordInput } from '../../../components/PasswordInput.tsx';
import { Panel } from './Panel.tsx';

export function DeleteAccountPanel({ hasPassword }: { hasPassword: boolean | undefined }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const close = () => {
    setOpen(false);
    setPassword('');
    setError('');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (hasPassword !== false && !password) return setError('Enter your password');
    setBusy(true);
    setError('');
    try {
      await api.deleteMe(hasPassword === false ? {} : { password });
    } catch (err) {
      setBusy(false);
      return setError(userMessage(err, 'Could not delete your account'));
    }
    // A full load of the landing page: nothing of the account stays in memory (cached queries,
    // the crypto Worker), and no guard can send the visitor to /auth first when the session store
    // notices the ended session (a client-side navigation raced with it).
    window.location.replace('/');
  };

  return (
    <Panel
      title="Delete account"
      tone="danger"
      description="Deletes your account, your vaults and everything in them. This cannot be undone."
      icon={<Trash2 className="size-5" />}
    >
      <button type="button" onClick={() => setOpen(true)} className={buttonClass('danger')}>
        Delete account
      </button>
      <Modal
        open={open}
        onOpenChange={(o) => !o && close()}
        size="sm"
        closable={!busy}
        title="Delete your account?"
        description="Your vaults, files and secrets are removed for good."
        footer={
          <DialogFooter
            onCancel={close}
            submit="Delete account"
            busyText="Deleting..."
            busy={busy}
            tone="danger"
            form="delete-account"
          />
        }
      >
        <form id="delete-account" noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
          {error && <FormMessage kind="error">{error}</FormMessage>}
          {hasPassword === false ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              You sign in with Google. If you signed in more than 10 minutes ago, sign out and in
              again first.
            </p>
          ) : (
            <Field label="Password">
              <PasswordInput
                autoComplete="current-password"
                autoFocus
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
          )}
        </form>
      </Modal>
    </Panel>
  );
}
