// The Settings 'Vault Management' section (docs/product.md §2): each vault can be hidden from the dashboard
// or shown again. Only the Pro plan may hide (docs/product.md §5, enforced by the server too); other plans
// see 'Upgrade to the Pro plan to hide vaults from your dashboard.' and can still show a vault
// that is hidden. Hidden vaults leave the dashboard until 'Show N hidden vault(s)' is used.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Eye, EyeOff, FolderLock, KeyRound, Loader2, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  ApiError,
  canHideVaults,
  messages,
  subscriptionMessages,
  subscriptionsApi,
  type Vault,
} from '@sealvault/protocol';
import { useProfile } from '../auth/useAccount.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { vaultKeysQuery, useVaultList } from '../vaults/useVaults.ts';
import { Panel } from './Panel.tsx';

export function VaultManagement() {
  const { t } = useTranslation();
  const profile = useProfile();
  const vaults = useVaultList();
  const qc = useQueryClient();
  const planId = profile.data?.current_plan_id;
  const mayHide = planId !== undefined && canHideVaults(planId);

  const toggle = useMutation({
    mutationFn: (v: Vault) => subscriptionsApi.setVaultHidden(v.id, !v.is_hidden),
    onSuccess: ({ vault }) => {
      qc.setQueryData<Vault[]>(vaultKeysQuery.all, (old) =>
        old?.map((v) => (v.id === vault.id ? { ...v, is_hidden: vault.is_hidden } : v)),
      );
      return qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
    },
    onError: (err) =>
      toast.error(
        t(
          err instanceof ApiError && err.status === 403
            ? err.message
            : messages.vaults.visibilityFailed,
        ),
      ),
  });

  return (
    <Panel
      title={t('Vault Management')}
      icon={<EyeOff className="size-5" />}
      description={t(
        'Hide vaults you rarely use from your dashboard. Hidden vaults stay encrypted and available; the dashboard can show them again at any time.',
      )}
    >
      {!mayHide && profile.data && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900 dark:border-indigo-800/70 dark:bg-indigo-950/50 dark:text-indigo-200">
          <span className="flex items-center gap-2">
            <Sparkles aria-hidden="true" className="size-4 shrink-0" />
            {t(subscriptionMessages.hideRequiresPro)}
          </span>
          <Link to="/dashboard?view=subscription" className={buttonClass('primary', 'md', '!h-9')}>
            {t('View plans')}
          </Link>
        </div>
      )}
      {vaults.isPending ? (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-4 animate-spin" /> {t('Loading vaults…')}
        </p>
      ) : vaults.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t('Could not load your vaults.')}
        </p>
      ) : vaults.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('You have no vaults yet.')}</p>
      ) : (
        <ul
          aria-label={t('Vault visibility')}
          className="divide-y divide-slate-200 dark:divide-slate-800"
        >
          {vaults.data.map((v) => (
            <VisibilityRow
              key={v.id}
              vault={v}
              disabled={(!mayHide && !v.is_hidden) || toggle.isPending}
              busy={toggle.isPending && toggle.variables.id === v.id}
              onToggle={() => toggle.mutate(v)}
            />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function VisibilityRow({
  vault,
  disabled,
  busy,
  onToggle,
}: {
  vault: Vault;
  disabled: boolean;
  busy: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const TypeIcon = vault.vault_type === 'secrets' ? KeyRound : FolderLock;
  const hidden = vault.is_hidden;
  return (
    <li className="flex items-center justify-between gap-4 py-3">
      <span className="flex min-w-0 items-center gap-3">
        <TypeIcon
          aria-hidden="true"
          className="size-4 shrink-0 text-slate-500 dark:text-slate-400"
        />
        <span className="min-w-0">
          <span className="block truncate text-sm font-medium text-slate-900 dark:text-white">
            {vault.name}
          </span>
          <span className="flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            {hidden ? (
              <EyeOff aria-hidden="true" className="size-3" />
            ) : (
              <Eye aria-hidden="true" className="size-3" />
            )}
            {hidden ? t('Hidden from the dashboard') : t('Shown on the dashboard')}
          </span>
        </span>
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={hidden}
        aria-label={t('Hide {{name}} from the dashboard', { name: vault.name })}
        disabled={disabled}
        onClick={onToggle}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-50 ${
          hidden ? 'bg-indigo-600 dark:bg-indigo-500' : 'bg-slate-300 dark:bg-slate-700'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-flex size-5 items-center justify-center rounded-full bg-white shadow transition-transform ${
            hidden ? 'translate-x-5.5' : 'translate-x-0.5'
          }`}
        >
          {busy && <Loader2 className="size-3 animate-spin text-indigo-600" />}
        </span>
      </button>
    </li>
  );
}
