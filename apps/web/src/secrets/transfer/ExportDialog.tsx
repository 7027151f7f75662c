// The export dialog (issue 20): an encrypted export by default (a password typed twice; the file
// format is vault-format.md's "Encrypted export", and it imports back here). A plain Bitwarden
// JSON or CSV export sits behind a warning that anyone can read the file, and asks for the vault
// password again, checked by opening the vault's key slot in the crypto Worker (and closing that
// session at once). Everything is made in the browser and downloaded; nothing goes to the server.
import { asVaultId } from '@sealvault/crypto';
import { messages, userMessage, type Vault } from '@sealvault/protocol';
import { Download, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { Field } from '../../components/Field.tsx';
import { Modal } from '../../components/Modal.tsx';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { cryptoClient } from '../../crypto/client.ts';
import { msg, useTranslation } from '../../i18n/i18n.ts';
import { formatNumber } from '../../i18n/format.ts';
import { transferFromStored } from '../itemFormat.ts';
import type { Secret } from '../model.ts';
import { exportFileName, plainExportNotice } from './exportFile.ts';

type Kind = 'encrypted' | 'json' | 'csv';

/** An export password's minimum length (ours): the file may travel anywhere. */
export const EXPORT_PASSWORD_MIN = 8;

export function ExportDialog({
  vault,
  secrets,
  open,
  onClose,
}: {
  vault: Vault | undefined;
  secrets: readonly Secret[];
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const [kind, setKind] = useState<Kind>('encrypted');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [vaultPassword, setVaultPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; again?: string; vault?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setKind('encrypted');
    setPassword('');
    setAgain('');
    setVaultPassword('');
    setErrors({});
    setError(null);
    onClose();
  };

  const items = () => secrets.map((s) => transferFromStored(s));
  const omitted =
    kind === 'csv' ? plainExportNotice(secrets.map((s) => transferFromStored(s))) : null;

  const submit = async () => {
    setError(null);
    if (!vault) return;
    if (kind === 'encrypted') {
      const next: typeof errors = {};
      if (password.length < EXPORT_PASSWORD_MIN)
        next.password = t('Use at least {{count}} characters.', {
          count: formatNumber(EXPORT_PASSWORD_MIN),
        });
      else if (again !== password) next.again = t('The passwords do not match.');
      setErrors(next);
      if (next.password || next.again) return;
    } else if (vaultPassword === '') {
      setErrors({ vault: t('Enter the vault password.') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const exp = await import('./export.ts');
      let text: string;
      if (kind === 'encrypted') {
        text = await exp.exportEncrypted(items(), password);
      } else {
        if (!(await vaultPasswordOpens(vault, vaultPassword))) {
          setErrors({ vault: t(messages.vaults.invalidPassword) });
          return;
        }
        text =
          kind === 'json' ? exp.exportBitwardenJson(items()) : exp.exportBitwardenCsv(items()).csv;
      }
      download(
        text,
        exportFileName(vault.name, kind, new Date()),
        kind === 'csv' ? 'text/csv' : 'application/json',
      );
      toast.success(
        secrets.length === 1
          ? t('Exported {{count}} secret.', { count: formatNumber(secrets.length) })
          : t('Exported {{count}} secrets.', { count: formatNumber(secrets.length) }),
      );
      close();
    } catch (err) {
      setError(t(userMessage(err, msg('The export could not be made. Please try again.'))));
    } finally {
      setBusy(false);
    }
  };

  const choice = (value: Kind, label: string, hint: string) => (
    <label className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50/50 dark:border-slate-800 dark:has-[:checked]:border-indigo-400 dark:has-[:checked]:bg-indigo-950/40">
      <input
        type="radio"
        name="export-kind"
        value={value}
        checked={kind === value}
        onChange={() => {
          setKind(value);
          setErrors({});
          setError(null);
        }}
        className="mt-0.5 size-4 text-indigo-600"
      />
      <span>
        <span className="block text-sm font-medium text-slate-900 dark:text-white">{t(label)}</span>
        <span className="block text-sm text-slate-600 dark:text-slate-400">{t(hint)}</span>
      </span>
    </label>
  );

  return (
    <Modal
      open={open}
      onOpenChange={(o) => {
        if (!o) close();
      }}
      size="lg"
      closable={!busy}
      title={t('Export secrets')}
      description={
        secrets.length === 1
          ? t('{{count}} secret of this vault, as a file made in this browser.', {
              count: formatNumber(secrets.length),
            })
          : t('{{count}} secrets of this vault, as a file made in this browser.', {
              count: formatNumber(secrets.length),
            })
      }
      footer={
        <DialogFooter
          onCancel={close}
          submit={t('Export')}
          busyText={t('Exporting...')}
          busy={busy}
          form={formId}
          submitDisabled={!vault || secrets.length === 0}
          tone={kind === 'encrypted' ? 'primary' : 'danger'}
          icon={<Download aria-hidden="true" className="size-4" />}
        />
      }
    >
      <form
        id={formId}
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset className="space-y-2">
          <legend className="mb-1.5 text-sm font-medium text-slate-800 dark:text-slate-200">
            {t('Format')}
          </legend>
          {choice(
            'encrypted',
            msg('Encrypted export (recommended)'),
            msg('A file protected by a password you choose. It imports back into SealVault.'),
          )}
          {choice(
            'json',
            msg('Plain Bitwarden JSON'),
            msg('Readable by anyone. Bitwarden and others import it.'),
          )}
          {choice(
            'csv',
            msg('Plain Bitwarden CSV'),
            msg('Readable by anyone. Holds logins and notes only.'),
          )}
        </fieldset>
        {kind === 'encrypted' ? (
          <>
            <Field
              label={t('Export password')}
              error={errors.password}
              hint={t('At least {{count}} characters. Without it the file cannot be opened.', {
                count: formatNumber(EXPORT_PASSWORD_MIN),
              })}
            >
              <PasswordInput
                value={password}
                autoComplete="new-password"
                onChange={(e) => setPassword(e.target.value)}
                toggleLabel={t('export password')}
              />
            </Field>
            <Field label={t('Export password again')} error={errors.again}>
              <PasswordInput
                value={again}
                autoComplete="new-password"
                onChange={(e) => setAgain(e.target.value)}
                toggleLabel={t('repeated export password')}
              />
            </Field>
          </>
        ) : (
          <>
            <div
              role="note"
              className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-200"
            >
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <p>
                {t(
                  'This file is not encrypted: anyone who gets it can read every password and note in it. Keep it only as long as you need it, and delete it after importing it elsewhere.',
                )}
              </p>
            </div>
            {omitted && <p className="text-sm text-slate-700 dark:text-slate-300">{omitted}</p>}
            <Field
              label={t('Vault password')}
              error={errors.vault}
              hint={t("To confirm it is you, type this vault's password again.")}
            >
              <PasswordInput
                value={vaultPassword}
                autoComplete="current-password"
                onChange={(e) => setVaultPassword(e.target.value)}
                toggleLabel={t('vault password')}
              />
            </Field>
          </>
        )}
        {error && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

/** Whether `password` opens the vault's password slot (a fresh session, closed at once). */
async function vaultPasswordOpens(vault: Vault, password: string): Promise<boolean> {
  const client = cryptoClient();
  let session;
  try {
    session = await client.unlockVault(asVaultId(vault.id), vault.key, password, {
      allowLegacy: false,
    });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'INVALID_PASSWORD') return false;
    throw err;
  }
  await client.closeSession(session).catch(() => undefined);
  return true;
}

function download(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
