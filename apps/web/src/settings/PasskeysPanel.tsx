// Account settings: passkeys to sign in (issue 30; docs/product.md §2 "Settings view"). Add one
// (named, created by the browser's passkey dialog), rename, remove. The server refuses to remove
// the last way to sign in and says why; that text is shown as is.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { passkeyNameSchema, type PasskeySummary } from '@sealvault/protocol';
import {
  addPasskey,
  listPasskeys,
  passkeysSupported,
  removePasskey,
  renamePasskey,
} from '../auth/passkeys.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { deviceName, formatSessionDate } from './device.ts';
import { Panel } from './Panel.tsx';

const passkeysKey = ['auth-passkeys'] as const;

type Editing =
  | { kind: 'add' }
  | { kind: 'rename'; passkey: PasskeySummary }
  | { kind: 'remove'; passkey: PasskeySummary };

export function PasskeysPanel() {
  const { t } = useTranslation();
  const supported = passkeysSupported();
  const [editing, setEditing] = useState<Editing | null>(null);
  const passkeys = useQuery({ queryKey: passkeysKey, queryFn: listPasskeys });

  return (
    <Panel
      title={t('Passkeys')}
      description={t(
        'Sign in with your fingerprint, face, screen lock or a security key instead of your password. A passkey sign-in needs no two-factor code.',
      )}
      icon={<KeyRound className="size-5" />}
    >
      {passkeys.isPending ? (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-4 animate-spin" /> {t('Loading passkeys...')}
        </p>
      ) : passkeys.isError ? (
        <FormMessage kind="error">{t(passkeys.error.message)}</FormMessage>
      ) : passkeys.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('No passkeys yet.')}</p>
      ) : (
        <ul
          aria-label={t('Your passkeys')}
          className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {passkeys.data.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="flex items-center gap-2 text-sm font-medium break-all text-slate-900 dark:text-white">
                  {p.name}
                  {p.backedUp && (
                    <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
                      {t('Synced')}
                    </span>
                  )}
                </p>
                <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                  {t('Added {{date}}', { date: formatSessionDate(p.createdAt) })} ·{' '}
                  {p.lastUsedAt
                    ? t('Last used {{date}}', { date: formatSessionDate(p.lastUsedAt) })
                    : t('Never used')}
                </p>
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  onClick={() => setEditing({ kind: 'rename', passkey: p })}
                  aria-label={t('Rename passkey {{name}}', { name: p.name })}
                  className={buttonClass('secondary', 'md', '!h-8 !px-3 !text-xs')}
                >
                  {t('Rename')}
                </button>
                <button
                  type="button"
                  onClick={() => setEditing({ kind: 'remove', passkey: p })}
                  aria-label={t('Remove passkey {{name}}', { name: p.name })}
                  className={buttonClass('secondary', 'md', '!h-8 !px-3 !text-xs')}
                >
                  {t('Remove')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <button
          type="button"
          onClick={() => setEditing({ kind: 'add' })}
          className={buttonClass('secondary', 'md', 'mt-4')}
        >
          <KeyRound aria-hidden="true" className="size-4" />
          {t('Add a passkey')}
        </button>
      ) : (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          {t('This browser cannot use passkeys.')}
        </p>
      )}
      {editing?.kind === 'add' && <NameDialog onClose={() => setEditing(null)} />}
      {editing?.kind === 'rename' && (
        <NameDialog passkey={editing.passkey} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'remove' && (
        <RemoveDialog passkey={editing.passkey} onClose={() => setEditing(null)} />
      )}
    </Panel>
  );
}

/** Add (no `passkey`): name it, then the browser's dialog creates it. Rename: a new name. */
function NameDialog({ passkey, onClose }: { passkey?: PasskeySummary; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(passkey?.name ?? deviceName(navigator.userAgent));
  const [error, setError] = useState('');
  const save = useMutation({
    mutationFn: async (value: string) => {
      if (passkey) await renamePasskey(passkey.id, value);
      else await addPasskey(value);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: passkeysKey });
      toast.success(passkey ? t('Passkey renamed') : t('Passkey added'));
      onClose();
    },
    onError: (err) => setError(err.message),
  });
  const submit = () => {
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? t('Please enter a name for this passkey.'));
      return;
    }
    setError('');
    save.mutate(parsed.data);
  };
  const formId = passkey ? 'rename-passkey' : 'add-passkey';
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      closable={!save.isPending}
      size="sm"
      title={passkey ? t('Rename passkey') : t('Add a passkey')}
      description={
        passkey
          ? undefined
          : t(
              'Name it after the device or key that holds it. Your browser then asks you to create the passkey.',
            )
      }
      footer={
        <DialogFooter
          onCancel={onClose}
          form={formId}
          submit={passkey ? t('Save') : t('Continue')}
          busyText={passkey ? t('Saving...') : t('Waiting for your passkey...')}
          busy={save.isPending}
        />
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="space-y-4"
      >
        {error && !save.isPending && <FormMessage kind="error">{t(error)}</FormMessage>}
        <Field label={t('Passkey name')}>
          <input
            className={inputClass}
            value={name}
            maxLength={64}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
            disabled={save.isPending}
          />
        </Field>
      </form>
    </Modal>
  );
}

function RemoveDialog({ passkey, onClose }: { passkey: PasskeySummary; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [error, setError] = useState('');
  const remove = useMutation({
    mutationFn: () => removePasskey(passkey.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: passkeysKey });
      toast.success(t('Passkey removed'));
      onClose();
    },
    onError: (err) => setError(err.message),
  });
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      closable={!remove.isPending}
      size="sm"
      title={t('Remove passkey?')}
      description={t('“{{name}}” will no longer sign you in.', { name: passkey.name })}
      footer={
        <DialogFooter
          onCancel={onClose}
          onSubmit={() => remove.mutate()}
          submit={t('Remove passkey')}
          busyText={t('Removing...')}
          busy={remove.isPending}
          tone="danger"
        />
      }
    >
      <div className="space-y-4">
        {error && <FormMessage kind="error">{t(error)}</FormMessage>}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t(
            'The passkey stays on your device or security key until you delete it there, in its passkey settings.',
          )}
        </p>
      </div>
    </Modal>
  );
}
