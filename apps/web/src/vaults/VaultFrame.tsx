// The frame of /vault/:vaultId (docs/product.md §2 "Vault page"; screens/VaultScreen.tsx fills it):
// 'Loading vault...', 'Vault not found' with a way back, the Unlock Vault dialog while locked
// (closing it returns to the dashboard), and the vault's contents once unlocked. When the
// 30-minute session runs out, or the idle lock comes (idle/lockWatch.ts), the dialog comes back.
// [Note: kept work] A vault that locks while its page is open keeps its page: the contents stay
// mounted inside a hidden <Activity> (display: none, so nothing of them is readable, focusable or
// in the accessibility tree, open dialogs included, as React hides portals too) and unlocking
// here shows them again as they were, a half-typed form included. A hidden Activity runs no
// effects: its queries unsubscribe, so nothing refetches, decrypts or calls the Worker while the
// keys are gone, and what went stale reloads once the vault is unlocked again.
import * as Menu from '@radix-ui/react-dropdown-menu';
import { ArrowLeft, FolderLock, KeyRound, Loader2, Lock, MoreVertical } from 'lucide-react';
import { Activity, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { messages, type Vault } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { ChangePasswordDialog } from './ChangePasswordDialog.tsx';
import { PasskeysDialog } from './passkeys/PasskeysDialog.tsx';
import { useSession } from '../shell/session.tsx';
import { MoveVaultDialog } from './move/MoveVaultDialog.tsx';
import { DeleteVaultDialog } from './DeleteVaultDialog.tsx';
import { ReadOnlyNotice } from './ReadOnlyNotice.tsx';
import { useIsUnlocked, useLockedBecause, useVaultSessions } from './sessionContext.tsx';
import type { LockReason } from './vaultSessions.ts';
import { UnlockDialog } from './UnlockDialog.tsx';
import { useVault } from './useVaults.ts';

export function VaultFrame({ children }: { children?: (vault: Vault) => ReactNode }) {
  const { t } = useTranslation();
  const { vaultId = '' } = useParams();
  const navigate = useNavigate();
  const query = useVault(vaultId);
  const unlocked = useIsUnlocked(vaultId);
  // Where the focus goes once the vault is unlocked (what opened the dialog was on another page).
  const heading = useRef<HTMLHeadingElement>(null);
  // Remember that this vault was open here, so a locked state after it means the session ended.
  const [openedHere, setOpenedHere] = useState<string | null>(null);
  if (unlocked && openedHere !== vaultId) setOpenedHere(vaultId);
  const kept = openedHere === vaultId;
  const reason = useLockedBecause(vaultId);
  useKeptFocus(unlocked, kept);

  if (query.isPending) {
    return (
      <p
        role="status"
        className="flex items-center justify-center gap-2 py-24 text-slate-600 dark:text-slate-400"
      >
        <Loader2 aria-hidden="true" className="size-5 animate-spin" /> {t('Loading vault...')}
      </p>
    );
  }
  if (query.isError) {
    const notFound = (query.error as { status?: number }).status === 404;
    return (
      <div className="mx-auto max-w-md py-24 text-center">
        <h1 className="text-xl font-semibold text-slate-900 dark:text-white">
          {notFound ? t(messages.vaults.notFound) : t('Could not load this vault')}
        </h1>
        <Link to="/dashboard" className={buttonClass('primary', 'md', 'mt-6')}>
          {t('Back to Dashboard')}
        </Link>
      </div>
    );
  }
  const vault = query.data;
  return (
    <>
      <VaultHeader vault={vault} unlocked={unlocked} heading={heading} />
      {vault.read_only && <ReadOnlyNotice />}
      {kept && (
        // [Note: kept work]
        <Activity mode={unlocked ? 'visible' : 'hidden'}>
          {children?.(vault) ?? <UnlockedPlaceholder vault={vault} />}
        </Activity>
      )}
      {!unlocked && (
        <div className="flex flex-col items-center py-24 text-center text-slate-600 dark:text-slate-400">
          <Lock aria-hidden="true" className="size-10" />
          <p className="mt-3">{t('This vault is locked.')}</p>
        </div>
      )}
      <UnlockDialog
        vault={vault}
        open={!unlocked}
        onCancel={() => void navigate('/dashboard')}
        notice={kept ? lockedNotice(reason, t) : undefined}
        fallbackFocus={heading}
      />
    </>
  );
}

/** Why the unlock dialog is back on a page that was open (the expiry text is the spec's). */
function lockedNotice(reason: LockReason | null, t: (text: string) => string): string {
  const why =
    reason === 'idle'
      ? t('Vault locked after a period without activity.')
      : reason === 'manual'
        ? t('Vault locked.')
        : reason === 'rekeyed'
          ? t(messages.vaults.keysChangedElsewhere)
          : t(messages.vaults.sessionExpired);
  return `${why} ${t('What you were doing is kept here.')}`;
}

/**
 * Where the focus was on this page before the vault locked (never inside the lock warning), so
 * unlocking in place puts it back: into the half-typed form, not at the top of the page.
 */
function useKeptFocus(unlocked: boolean, kept: boolean): void {
  const last = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!unlocked) return;
    const onFocus = (e: FocusEvent) => {
      const t = e.target;
      if (t instanceof HTMLElement && !t.closest('[role="alertdialog"]')) last.current = t;
    };
    document.addEventListener('focusin', onFocus, true);
    return () => document.removeEventListener('focusin', onFocus, true);
  }, [unlocked]);
  // Once unlocked in place: after Radix has returned the focus (its own timeout), put it back.
  const wasLocked = useRef(false);
  useEffect(() => {
    if (!unlocked) {
      wasLocked.current = kept;
      return;
    }
    if (!wasLocked.current) return;
    wasLocked.current = false;
    const id = setTimeout(() => {
      if (last.current?.isConnected) last.current.focus();
    }, 0);
    return () => clearTimeout(id);
  }, [unlocked, kept]);
}

function VaultHeader({
  vault,
  unlocked,
  heading,
}: {
  vault: Vault;
  unlocked: boolean;
  heading: RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = useTranslation();
  const sessions = useVaultSessions();
  const navigate = useNavigate();
  const [changing, setChanging] = useState(false);
  const [passkeys, setPasskeys] = useState(false);
  const { user } = useSession();
  const [deleting, setDeleting] = useState(false);
  const [moving, setMoving] = useState(false);
  const Icon = vault.vault_type === 'secrets' ? KeyRound : FolderLock;
  const item =
    'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800';
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <div className="flex min-w-0 items-center gap-3">
        <Link
          to="/dashboard"
          aria-label={t('Back to Dashboard')}
          className={buttonClass('ghost', 'md', '!px-2')}
        >
          <ArrowLeft aria-hidden="true" className="size-5" />
        </Link>
        <Icon aria-hidden="true" className="size-6 shrink-0 text-indigo-600 dark:text-indigo-300" />
        <h1
          ref={heading}
          tabIndex={-1}
          title={vault.name}
          className="truncate text-2xl font-bold tracking-tight text-slate-900 focus:outline-none dark:text-white"
        >
          {vault.name}
        </h1>
      </div>
      {unlocked && (
        <div className="flex items-center gap-2">
          <button
            type="button"
            onClick={() => {
              sessions.end(vault.id);
              void navigate('/dashboard');
            }}
            className={buttonClass('secondary')}
          >
            <Lock aria-hidden="true" className="size-4" /> {t('Lock Vault')}
          </button>
          {/* Not modal: a modal menu hides the page with aria-hidden while focus could still reach it. */}
          <Menu.Root modal={false}>
            <Menu.Trigger
              aria-label={t('Vault menu')}
              className={buttonClass('ghost', 'md', '!px-2')}
            >
              <MoreVertical aria-hidden="true" className="size-5" />
            </Menu.Trigger>
            <Menu.Portal>
              <Menu.Content
                align="end"
                sideOffset={6}
                className="z-50 min-w-48 rounded-lg border border-slate-200 bg-white p-1 text-slate-800 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
              >
                <Menu.Item className={item} onSelect={() => setChanging(true)}>
                  {t('Change password')}
                </Menu.Item>
                <Menu.Item className={item} onSelect={() => setPasskeys(true)}>
                  {t('Add a passkey')}
                </Menu.Item>
                <Menu.Item className={item} onSelect={() => setPasskeys(true)}>
                  {t('Manage passkeys')}
                </Menu.Item>
                <Menu.Item className={item} onSelect={() => setMoving(true)}>
                  {t('Move to another provider')}
                </Menu.Item>
                <Menu.Item
                  className={`${item} text-red-600 dark:text-red-400`}
                  onSelect={() => setDeleting(true)}
                >
                  {t('Delete vault')}
                </Menu.Item>
              </Menu.Content>
            </Menu.Portal>
          </Menu.Root>
        </div>
      )}
      <ChangePasswordDialog vault={vault} open={changing} onOpenChange={setChanging} />
      <PasskeysDialog
        vault={vault}
        open={passkeys}
        onOpenChange={setPasskeys}
        userName={user.email}
      />
      <MoveVaultDialog vault={vault} open={moving} onOpenChange={setMoving} />
      <DeleteVaultDialog
        vault={deleting ? vault : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate('/dashboard')}
      />
    </div>
  );
}

function UnlockedPlaceholder({ vault }: { vault: Vault }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
      <p className="font-medium text-slate-900 dark:text-white">
        {vault.vault_type === 'secrets'
          ? t('No secrets in this vault yet.')
          : t('No files in this vault')}
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {t('The vault is unlocked on this device.')}
      </p>
    </div>
  );
}
