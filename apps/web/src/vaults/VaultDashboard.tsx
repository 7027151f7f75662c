// The dashboard view (docs/product.md §2): title, usage (vaults, and storage against the plan's quota), the
// upgrade banner (the limit banner at the limit), the 'Create New Vault' tile, one card per vault
// and the hidden-vaults toggle.
import { AlertTriangle, Link2, Loader2, Plus, RefreshCw, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  canCreateVault,
  formatPlanSize,
  isUnlimited,
  type Limits,
  type Vault,
} from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { DashboardDialogs } from './dashboardViewDialogs.tsx';
import { LimitTile } from './LimitTile.tsx';
import { StorageUsageBar, UsageBar } from './UsageBar.tsx';
import { VaultCard } from './VaultCard.tsx';
import { useLimits, useVaultList } from './useVaults.ts';
import { useSelfHosted } from '../plans/usePlansMode.ts';
import { msg, Trans, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export const LIMIT_BANNER = msg(
  "You've reached your vault limit. Upgrade to create more file and secrets vaults.",
);

export function VaultDashboard() {
  const { t } = useTranslation();
  const vaults = useVaultList();
  const { limits, isPending: limitsPending } = useLimits();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Vault | null>(null);
  const [moving, setMoving] = useState<Vault | null>(null);
  const [showHidden, setShowHidden] = useState(false);
  // The dialogs' code loads when the pointer or focus comes to the list (dashboardViewDialogs.tsx).
  const [dialogsWanted, setDialogsWanted] = useState(false);
  const wantDialogs = () => setDialogsWanted(true);
  // A self-hosted instance sells nothing: no upgrade prompt (issue 33).
  const selfHosted = useSelfHosted();

  const all = vaults.data ?? [];
  const hidden = all.filter((v) => v.is_hidden);
  const shown = showHidden ? all : all.filter((v) => !v.is_hidden);
  // After a lapsed trial ([Note: read-only after a trial] in the protocol's trials.ts).
  const readOnly = all.filter((v) => v.read_only).length;
  // Until the plan's limits are known nothing is called "at the limit" (a paid user with more
  // than the fallback's two vaults would otherwise see the limit flash by).
  const atLimit = !limitsPending && !canCreateVault(all.length, limits.max_vaults);

  return (
    <section aria-labelledby="vaults-title" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1
            id="vaults-title"
            className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white"
          >
            {t('Your Vaults')}
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t("Everything in a vault is encrypted on this device with the vault's password.")}
          </p>
          <Link
            to="/dashboard?view=shares"
            className="mt-2 inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            <Link2 aria-hidden="true" className="size-4" /> {t('Shared links and Send a text')}
          </Link>
        </div>
        <div className="flex w-full max-w-sm flex-col gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-900">
          <UsageBar count={all.length} max={limits.max_vaults} />
          {!limitsPending &&
            limits.max_storage_mb !== undefined &&
            limits.storage_used_bytes !== undefined && (
              <StorageUsageBar
                usedBytes={limits.storage_used_bytes}
                maxMb={limits.max_storage_mb}
              />
            )}
        </div>
      </div>

      {atLimit && vaults.isSuccess && (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700/60 dark:bg-amber-950/50 dark:text-amber-200"
        >
          <span className="flex items-center gap-2">
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
            <span>
              {t(LIMIT_BANNER)}
              {readOnly > 0 ? (
                // The protocol's trialMessages.readOnlyList, word for word.
                <span className="mt-1 block">
                  {readOnly === 1
                    ? t(
                        "{{count}} vault is over the Free plan's limit and now read-only. Nothing was deleted: you can open them and download what they hold. Upgrade to change them again, or delete vaults to choose which stay writable.",
                        { count: formatNumber(readOnly) },
                      )
                    : t(
                        "{{count}} vaults are over the Free plan's limit and now read-only. Nothing was deleted: you can open them and download what they hold. Upgrade to change them again, or delete vaults to choose which stay writable.",
                        { count: formatNumber(readOnly) },
                      )}
                </span>
              ) : (
                all.length > limits.max_vaults && (
                  // The protocol's subscriptionMessages.overLimit, word for word.
                  <span className="mt-1 block">
                    {t(
                      'You have {{count}} vaults and your plan allows {{max}}. Your existing vaults stay available, but you cannot create new ones until you delete some or upgrade.',
                      { count: formatNumber(all.length), max: formatNumber(limits.max_vaults) },
                    )}
                  </span>
                )
              )}
            </span>
          </span>
          {!selfHosted && (
            <Link
              to="/dashboard?view=subscription"
              className={buttonClass('primary', 'md', '!h-9')}
            >
              {t('Upgrade')}
            </Link>
          )}
        </div>
      )}

      {!selfHosted &&
        !atLimit &&
        !limitsPending &&
        vaults.isSuccess &&
        !isUnlimited(limits.max_vaults) && <UpgradeBanner limits={limits} />}

      {vaults.isPending ? (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-4 animate-spin" /> {t('Loading vaults…')}
        </p>
      ) : vaults.isError ? (
        <div
          role="alert"
          className="flex items-center gap-3 text-sm text-red-700 dark:text-red-400"
        >
          {t('Could not load your vaults.')}
          <button
            type="button"
            onClick={() => void vaults.refetch()}
            className={buttonClass('secondary')}
          >
            <RefreshCw aria-hidden="true" className="size-4" /> {t('Retry')}
          </button>
        </div>
      ) : (
        // grid-cols-1 is minmax(0, 1fr): a long vault name truncates instead of widening the page.
        <ul
          aria-label={t('Vaults')}
          onPointerEnter={wantDialogs}
          onFocus={wantDialogs}
          className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
        >
          <li className="contents">
            <CreateTile
              atLimit={atLimit}
              max={limits.max_vaults}
              onCreate={() => setCreating(true)}
            />
          </li>
          {shown.map((v) => (
            <VaultCard key={v.id} vault={v} onDelete={setDeleting} onMove={setMoving} />
          ))}
        </ul>
      )}

      {hidden.length > 0 && (
        <button
          type="button"
          onClick={() => setShowHidden((s) => !s)}
          className={buttonClass('ghost')}
        >
          {showHidden
            ? t('Hide hidden vaults')
            : t('Show {{count}} hidden vault(s)', { count: formatNumber(hidden.length) })}
        </button>
      )}

      <DashboardDialogs
        wanted={dialogsWanted}
        creating={creating}
        onCreatingChange={setCreating}
        deleting={deleting}
        onDeleteClose={() => setDeleting(null)}
        moving={moving}
        onMoveClose={() => setMoving(null)}
      />
    </section>
  );
}

function UpgradeBanner({ limits }: { limits: Limits }) {
  const { t } = useTranslation();
  return (
    <div
      role="note"
      aria-label={t('Upgrade')}
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900 dark:border-indigo-800/70 dark:bg-indigo-950/50 dark:text-indigo-200"
    >
      <span className="flex items-center gap-2">
        <Sparkles aria-hidden="true" className="size-4 shrink-0" />
        <span>
          <Trans
            i18nKey="Your {{plan}} plan holds {{max}} vaults with files up to <size>{{size}}</size>. Upgrade for more vaults and larger files."
            values={{
              plan: limits.plan_name,
              max: formatNumber(limits.max_vaults),
              size: t(formatPlanSize(limits.max_file_size_mb)),
            }}
            components={{ size: <span className="whitespace-nowrap" /> }}
          />
        </span>
      </span>
      <Link to="/dashboard?view=subscription" className={buttonClass('secondary', 'md', '!h-9')}>
        {t('View plans')}
      </Link>
    </div>
  );
}

function CreateTile({
  atLimit,
  max,
  onCreate,
}: {
  atLimit: boolean;
  max: number;
  onCreate: () => void;
}) {
  const { t } = useTranslation();
  const tile =
    'flex min-h-52 w-full flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed p-5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500';
  if (!atLimit) {
    return (
      <button
        type="button"
        onClick={onCreate}
        className={`${tile} border-indigo-300 text-indigo-700 hover:border-indigo-500 hover:bg-indigo-50 dark:border-indigo-800 dark:text-indigo-300 dark:hover:bg-indigo-950/50`}
      >
        <span className="flex size-12 items-center justify-center rounded-full bg-indigo-100 dark:bg-indigo-900">
          <Plus aria-hidden="true" className="size-6" />
        </span>
        {t('Create New Vault')}
      </button>
    );
  }
  return <LimitTile max={max} className={tile} />;
}
