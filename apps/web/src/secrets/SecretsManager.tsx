// The secrets manager of an unlocked secrets vault (docs/product.md §2): title 'Secrets', the count of
// encrypted secrets, search (title, username or url, in the browser on decrypted data), 'Add
// Plain Text' and 'Add Site Password', and the cards. Long lists are virtualised, so thousands of
// secrets stay smooth.
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { ArrowLeft, FileText, KeyRound, Loader2, Search } from 'lucide-react';
import { AddOtherMenu } from './AddOtherMenu.tsx';
import { kindOf } from './itemForm.ts';
import { useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { messageForUser, messages, userMessage, type Vault } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { copyWithAutoClear } from './clipboard.ts';
import { matches, type Secret } from './model.ts';
import { SecretCard } from './SecretCard.tsx';
import { ShareDialog } from '../shares/ShareDialog.tsx';
import { sharedItem } from '../shares/sharedItem.ts';
import { SecretFormDialog, type SecretFormMode } from './SecretFormDialog.tsx';
import { useSecretMutations, useSecrets } from './useSecrets.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';
import { IntegrityNotice } from '../vaults/manifest/IntegrityNotice.tsx';
import { HealthButton } from './health/HealthButton.tsx';
import { TransferMenu } from './transfer/TransferMenu.tsx';
import { registerVaultStorage } from '../storage/providers.ts';
import { CloudConnectionPrompt } from '../files/CloudConnectionPrompt.tsx';
import { useLostConnection } from '../files/useCloudConnection.ts';
import { useMoveNotice } from './store/sources.ts';

export function SecretsManager({ vault }: { vault: Vault }) {
  const { t } = useTranslation();
  const vaultId = vault.id;
  // Which provider keeps the items (ADR 0008): idempotent, before the list asks its source.
  registerVaultStorage(vault);
  const lost = useLostConnection(vaultId, vault.provider_type);
  const moving = useMoveNotice(vaultId);
  const list = useSecrets(vaultId);
  const { save, remove } = useSecretMutations(vaultId);
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [form, setForm] = useState<SecretFormMode | null>(null);
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const [sharing, setSharing] = useState<Secret | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const closeDelete = () => {
    setDeleting(null);
    setDeleteError(null);
  };

  const all = list.data?.secrets;
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useMemo(
    () => (all ?? []).filter((s) => matches(s, deferredQuery)),
    [all, deferredQuery],
  );

  const copy = (label: string, value: string) => {
    copyWithAutoClear(value).then(
      () => toast.success(t('{{label}} copied. The clipboard clears in 30 seconds.', { label })),
      () => toast.error(t('Copying was refused by the browser.')),
    );
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting);
      setDeleting(null);
    } catch (err) {
      setDeleteError(userMessage(err, messages.secrets.deleteFailed));
    }
  };

  const count = all?.length ?? 0;
  const shownError = (err: unknown) => {
    const text = messageForUser(err);
    return text && t(text);
  };
  return (
    <section aria-labelledby="secrets-title">
      <Link
        to="/dashboard"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" /> {t('Back to Dashboard')}
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2
            id="secrets-title"
            ref={heading}
            tabIndex={-1}
            className="text-xl font-bold text-slate-900 focus:outline-none dark:text-white"
          >
            {t('Secrets')}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {count === 1
              ? t('{{count}} encrypted secret', { count: formatNumber(count) })
              : t('{{count}} encrypted secrets', { count: formatNumber(count) })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <HealthButton vaultId={vaultId} secrets={all ?? []} />
          <TransferMenu vaultId={vaultId} secrets={all ?? []} />
          <AddOtherMenu onPick={(kind) => setForm({ kind, secret: null })} />
          <button
            type="button"
            onClick={() => setForm({ kind: 'plain', secret: null })}
            className={buttonClass('secondary')}
          >
            <FileText aria-hidden="true" className="size-4" /> {t('Add Plain Text')}
          </button>
          <button
            type="button"
            onClick={() => setForm({ kind: 'site', secret: null })}
            className={buttonClass('primary')}
          >
            <KeyRound aria-hidden="true" className="size-4" /> {t('Add Site Password')}
          </button>
        </div>
      </div>
      <div className="relative mt-5">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
        />
        <input
          type="search"
          aria-label={t('Search secrets')}
          placeholder={t('Search by title, username or website')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className={`${inputClass} pl-9`}
        />
      </div>

      {lost && <CloudConnectionPrompt connection={lost} className="mt-5" />}
      {list.isPending ? (
        <p
          role="status"
          className="mt-10 flex items-center justify-center gap-2 text-slate-600 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-5 shrink-0 animate-spin" />{' '}
          {moving ? t(moving) : t('Decrypting secrets...')}
        </p>
      ) : lost ? null : list.isError ? (
        <p role="alert" className="mt-10 text-center text-red-700 dark:text-red-400">
          {t('Could not load the secrets.')} {shownError(list.error)}
        </p>
      ) : (
        <>
          <IntegrityNotice lines={list.data.integrity} />
          {list.data.unreadable > 0 && (
            <p role="alert" className="mt-4 text-sm text-amber-800 dark:text-amber-300">
              {t('{{count}} secret(s) could not be decrypted and are not shown.', {
                count: formatNumber(list.data.unreadable),
              })}
            </p>
          )}
          {shown.length === 0 ? (
            <p className="mt-10 text-center text-slate-600 dark:text-slate-400">
              {count === 0
                ? t('No secrets in this vault yet.')
                : t('No secrets match your search.')}
            </p>
          ) : (
            <VirtualList
              items={shown}
              render={(s) => (
                <SecretCard
                  secret={s}
                  onEdit={() => setForm({ kind: kindOf(s), secret: s })}
                  onDelete={() => setDeleting(s)}
                  onShare={() => setSharing(s)}
                  onCopy={copy}
                />
              )}
            />
          )}
        </>
      )}

      <ShareDialog
        what={sharing ? { kind: 'secret', vaultId, item: sharedItem(sharing) } : null}
        title={sharing ? t('Share "{{title}}"', { title: sharing.title }) : t('Share')}
        onClose={() => setSharing(null)}
      />
      <SecretFormDialog
        mode={form}
        onClose={() => setForm(null)}
        onSave={(secret, fields) => save.mutateAsync({ secret, fields })}
        onCopy={copy}
        latest={form?.secret ? (all?.find((s) => s.id === form.secret?.id) ?? null) : null}
      />
      <Modal
        open={deleting !== null}
        fallbackFocus={heading}
        onOpenChange={(o) => {
          if (!o) closeDelete();
        }}
        size="sm"
        closable={!remove.isPending}
        title={t('Delete secret')}
        footer={
          <DialogFooter
            onCancel={closeDelete}
            submit={t('Delete')}
            busyText={t('Deleting...')}
            busy={remove.isPending}
            tone="danger"
            onSubmit={() => void confirmDelete()}
          />
        }
      >
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t('Are you sure you want to delete this secret?')}
        </p>
        {deleteError && (
          <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
            {t(deleteError)}
          </p>
        )}
      </Modal>
    </section>
  );
}

function VirtualList({
  items,
  render,
}: {
  items: Secret[];
  render: (s: Secret) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLUListElement>(null);
  // Where the list starts on the page, so window scrolling maps to the right rows.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => 190,
    overscan: 6,
    scrollMargin,
    getItemKey: (i) => items[i]!.id,
  });
  return (
    <ul
      ref={listRef}
      aria-label={t('Secrets')}
      className="relative mt-5"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <li
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          className="absolute inset-x-0 pb-4"
          style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
        >
          {render(items[row.index]!)}
        </li>
      ))}
    </ul>
  );
}
