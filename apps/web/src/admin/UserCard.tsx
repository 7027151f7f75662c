// One account in the admin console's Users section: who it is, its state (admin, disabled, second
// factor, unverified), what it uses, its plan and role, and the actions that ask first.
import type { AdminRole, AdminUser, PlanId } from '@sealvault/protocol';
import { userMessage } from '@sealvault/protocol';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { buttonClass } from '../components/buttonStyles.ts';
import { formatNumber } from '../i18n/format.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { formatBytes, formatDay, PLAN_IDS, planLabel } from './format.ts';
import { SessionsDialog } from './SessionsDialog.tsx';
import { useDeleteUser, useResetTwoFactor, useUpdateUser } from './useAdmin.ts';

type Confirming = 'disable' | 'enable' | 'delete' | 'two-factor' | null;

const selectClass =
  'h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:text-white';
const small = buttonClass('secondary', 'md', '!h-9 !px-3 !text-xs');

function Badge({
  tone,
  children,
}: {
  tone: 'indigo' | 'red' | 'emerald' | 'amber';
  children: ReactNode;
}) {
  const tones = {
    indigo: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200',
    red: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
    emerald: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
    amber: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  } as const;
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tones[tone]}`}>
      {children}
    </span>
  );
}

const changeFailed = msg('Could not change this user');

export function UserCard({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const { t } = useTranslation();
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const resetTwoFactor = useResetTwoFactor();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const who = user.email;

  const change = (input: { plan_id?: PlanId; role?: AdminRole }, done: string) => {
    update.mutate(
      { id: user.id, input },
      {
        onSuccess: () => toast.success(done),
        onError: (err) => toast.error(t(userMessage(err, changeFailed))),
      },
    );
  };

  const run = (action: () => Promise<unknown>, done: string) => {
    setError(null);
    action().then(
      () => {
        setConfirming(null);
        toast.success(done);
      },
      (err: unknown) => setError(userMessage(err, changeFailed)),
    );
  };

  const busy = update.isPending || remove.isPending || resetTwoFactor.isPending;

  return (
    <li
      aria-label={who}
      className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900 dark:text-white">{user.email}</p>
          <p className="truncate text-sm text-slate-600 dark:text-slate-400">
            {user.name || t('No name')}
          </p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {isSelf && <Badge tone="indigo">{t('You')}</Badge>}
          {user.role === 'admin' && <Badge tone="indigo">{t('Admin')}</Badge>}
          {user.disabled_at && <Badge tone="red">{t('Disabled')}</Badge>}
          {user.two_factor_enabled && <Badge tone="emerald">{t('Two-factor')}</Badge>}
          {!user.email_verified && <Badge tone="amber">{t('Unverified')}</Badge>}
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-slate-600 sm:grid-cols-4 dark:text-slate-400">
        <div>
          <dt className="inline">{t('Storage:')} </dt>
          <dd className="inline font-medium text-slate-800 dark:text-slate-200">
            {formatBytes(user.storage_used_bytes)}
          </dd>
        </div>
        <div>
          <dt className="inline">{t('Vaults:')} </dt>
          <dd className="inline font-medium text-slate-800 dark:text-slate-200">
            {formatNumber(user.vault_count)}
          </dd>
        </div>
        <div>
          <dt className="inline">{t('Created:')} </dt>
          <dd className="inline font-medium text-slate-800 dark:text-slate-200">
            {formatDay(user.created_at)}
          </dd>
        </div>
        <div>
          <dt className="inline">{t('Last sign-in:')} </dt>
          <dd className="inline font-medium text-slate-800 dark:text-slate-200">
            {user.last_sign_in_at ? formatDay(user.last_sign_in_at) : t('Unknown')}
          </dd>
        </div>
      </dl>

      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label
            htmlFor={`plan-${user.id}`}
            className="mb-1 block text-xs font-medium text-slate-700 dark:text-slate-300"
          >
            {t('Plan')}
          </label>
          <select
            id={`plan-${user.id}`}
            value={user.plan_id}
            disabled={busy}
            onChange={(e) => {
              const plan = e.target.value as PlanId;
              change(
                { plan_id: plan },
                t('{{email}} is now on {{plan}}', { email: who, plan: planLabel(plan) }),
              );
            }}
            className={selectClass}
          >
            {PLAN_IDS.map((id) => (
              <option key={id} value={id}>
                {id === user.plan_id ? user.plan_name : planLabel(id)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label
            htmlFor={`role-${user.id}`}
            className="mb-1 block text-xs font-medium text-slate-700 dark:text-slate-300"
          >
            {t('Role')}
          </label>
          <select
            id={`role-${user.id}`}
            value={user.role}
            disabled={busy || isSelf}
            aria-describedby={isSelf ? `self-${user.id}` : undefined}
            onChange={(e) => {
              const role = e.target.value as AdminRole;
              change(
                { role },
                role === 'admin'
                  ? t('{{email}} is now an admin', { email: who })
                  : t('{{email}} is no longer an admin', { email: who }),
              );
            }}
            className={selectClass}
          >
            <option value="user">{t('User')}</option>
            <option value="admin">{t('Admin')}</option>
          </select>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={small} onClick={() => setSessionsOpen(true)}>
            {t('Sessions')}
          </button>
          {user.two_factor_enabled && (
            <button type="button" className={small} onClick={() => setConfirming('two-factor')}>
              {t('Reset two-factor')}
            </button>
          )}
          {!isSelf &&
            (user.disabled_at ? (
              <button type="button" className={small} onClick={() => setConfirming('enable')}>
                {t('Enable')}
              </button>
            ) : (
              <button type="button" className={small} onClick={() => setConfirming('disable')}>
                {t('Disable')}
              </button>
            ))}
          {!isSelf && (
            <button
              type="button"
              className={buttonClass('danger', 'md', '!h-9 !px-3 !text-xs')}
              onClick={() => setConfirming('delete')}
            >
              {t('Delete')}
            </button>
          )}
        </div>
      </div>
      {isSelf && (
        <p id={`self-${user.id}`} className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          {t('This is your account: you cannot demote, disable or delete it here.')}
        </p>
      )}

      <ConfirmDialog
        open={confirming === 'disable'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={t('Disable {{email}}?', { email: who })}
        description={t(
          'They are signed out everywhere at once and cannot sign in until an admin enables the account again. Their vaults and files stay.',
        )}
        confirm={t('Disable')}
        busyText={t('Disabling...')}
        busy={update.isPending}
        error={error && t(error)}
        onConfirm={() =>
          run(
            () => update.mutateAsync({ id: user.id, input: { disabled: true } }),
            t('{{email}} is disabled', { email: who }),
          )
        }
      />
      <ConfirmDialog
        open={confirming === 'enable'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={t('Enable {{email}}?', { email: who })}
        description={t('They can sign in again.')}
        confirm={t('Enable')}
        busyText={t('Enabling...')}
        busy={update.isPending}
        error={error && t(error)}
        tone="primary"
        onConfirm={() =>
          run(
            () => update.mutateAsync({ id: user.id, input: { disabled: false } }),
            t('{{email}} is enabled', { email: who }),
          )
        }
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={t('Delete {{email}}?', { email: who })}
        description={t(
          'The account, its vaults, files, secrets and share links are removed for good. This cannot be undone.',
        )}
        confirm={t('Delete account')}
        busyText={t('Deleting...')}
        busy={remove.isPending}
        error={error && t(error)}
        onConfirm={() =>
          run(() => remove.mutateAsync(user.id), t('{{email}} was deleted', { email: who }))
        }
      />
      <ConfirmDialog
        open={confirming === 'two-factor'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={t('Reset two-factor for {{email}}?', { email: who })}
        description={t(
          'Their authenticator app and backup codes stop working; they sign in with their password alone and can set up two-factor again in Settings.',
        )}
        confirm={t('Reset two-factor')}
        busyText={t('Resetting...')}
        busy={resetTwoFactor.isPending}
        error={error && t(error)}
        onConfirm={() =>
          run(
            () => resetTwoFactor.mutateAsync(user.id),
            t('Two-factor reset for {{email}}', { email: who }),
          )
        }
      />
      <SessionsDialog user={user} open={sessionsOpen} onOpenChange={setSessionsOpen} />
    </li>
  );
}
