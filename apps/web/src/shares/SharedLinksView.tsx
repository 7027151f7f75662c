// "Shared links" (issue 29; /dashboard?view=shares): the owner's links, active and ended, with
// what each is, from which vault, when it was made, its expiry and its opens; "Copy link" again
// (its key is kept encrypted under the vault's key, so the vault must be unlocked in this tab),
// a new expiry, and "Revoke", which deletes the link's copy at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Link2, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  formatBytes,
  sharesApi,
  userMessage,
  type ShareExpiry,
  type ShareLink,
} from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { formatNumber } from '../i18n/format.ts';
import { i18n, msg, useTranslation } from '../i18n/i18n.ts';
import { formatDate } from '../vaults/format.ts';
import { appVaultSessions } from '../vaults/sessionContext.tsx';
import { useVaultList } from '../vaults/useVaults.ts';
import { EXPIRY_LABELS, expiresIn } from './links.ts';
import { linkAgain } from './makeShare.ts';
import { ShareDialog } from './ShareDialog.tsx';

export const sharesKey = ['shares'] as const;

export const sharedLinksTexts = {
  empty: msg(
    'You have no share links yet. Share a file or a secret from its vault, or send a text.',
  ),
  revoked: msg('The link was revoked: it no longer opens.'),
  revokeFailed: msg('The link could not be revoked. Please try again.'),
  copyLocked: msg('Unlock its vault in this tab to copy the link again.'),
  copyNone: msg('This link was shown once when it was made and cannot be copied again.'),
  copied: msg('Link copied.'),
  expiryChanged: msg('The expiry was changed.'),
  expiryFailed: msg('The expiry could not be changed. Please try again.'),
} as const;

const KIND = { file: msg('File'), secret: msg('Secret'), text: msg('Text') } as const;
const STATUS = {
  active: msg('Active'),
  expired: msg('Expired'),
  'used-up': msg('Used up'),
} as const;

const opensText = (s: ShareLink) =>
  s.max_opens === null
    ? s.opens === 1
      ? i18n.t('{{count}} open', { count: formatNumber(s.opens) })
      : i18n.t('{{count}} opens', { count: formatNumber(s.opens) })
    : i18n.t('{{opens}} of {{max}} opens', {
        opens: formatNumber(s.opens),
        max: formatNumber(s.max_opens),
      });

export function SharedLinksView() {
  const qc = useQueryClient();
  const { t } = useTranslation();
  const links = useQuery({
    queryKey: sharesKey,
    queryFn: async () => (await sharesApi.list()).shares,
  });
  const vaults = useVaultList();
  const [texting, setTexting] = useState(false);
  const vaultName = (id: string | null) =>
    id === null
      ? t('Sent as a text')
      : (vaults.data?.find((v) => v.id === id)?.name ?? t('A deleted vault'));
  const reload = () => qc.invalidateQueries({ queryKey: sharesKey });

  const revoke = useMutation({
    mutationFn: (id: string) => sharesApi.revoke(id),
    onSuccess: () => toast.success(i18n.t(sharedLinksTexts.revoked)),
    onError: (err) => toast.error(i18n.t(userMessage(err, sharedLinksTexts.revokeFailed))),
    onSettled: reload,
  });
  const extend = useMutation({
    mutationFn: ({ id, expires }: { id: string; expires: ShareExpiry }) =>
      sharesApi.update(id, { expires_in: expires }),
    onSuccess: () => toast.success(i18n.t(sharedLinksTexts.expiryChanged)),
    onError: (err) => toast.error(i18n.t(userMessage(err, sharedLinksTexts.expiryFailed))),
    onSettled: reload,
  });

  const copy = async (s: ShareLink) => {
    if (!s.owner_key || s.vault_id === null) return toast(t(sharedLinksTexts.copyNone));
    if (!appVaultSessions.isUnlocked(s.vault_id)) return toast(t(sharedLinksTexts.copyLocked));
    try {
      const url = await linkAgain(s.vault_id, s);
      if (!url) return toast(t(sharedLinksTexts.copyNone));
      await navigator.clipboard.writeText(url);
      toast.success(t(sharedLinksTexts.copied));
    } catch (err) {
      toast.error(t(userMessage(err, sharedLinksTexts.copyNone)));
    }
  };

  return (
    <section aria-labelledby="shares-title" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <Link
            to="/dashboard"
            className="inline-flex items-center gap-1 text-sm text-indigo-700 hover:underline dark:text-indigo-300"
          >
            <ArrowLeft aria-hidden="true" className="size-4" /> {t('Your Vaults')}
          </Link>
          <h1
            id="shares-title"
            className="mt-2 text-2xl font-bold tracking-tight text-slate-900 dark:text-white"
          >
            {t('Shared links')}
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t('Each link carries its own key; the server keeps only encrypted copies.')}
          </p>
        </div>
        <button type="button" onClick={() => setTexting(true)} className={buttonClass('primary')}>
          <Send aria-hidden="true" className="size-4" /> {t('Send a text')}
        </button>
      </div>
      {links.isPending ? (
        <p role="status" className="text-slate-600 dark:text-slate-400">
          {t('Loading your links...')}
        </p>
      ) : links.isError ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {t(userMessage(links.error, msg('Your links could not be loaded. Please try again.')))}
        </p>
      ) : links.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 py-12 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          {t(sharedLinksTexts.empty)}
        </p>
      ) : (
        <ul
          aria-label={t('Shared links')}
          className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
        >
          {links.data.map((s) => (
            <li
              key={s.id}
              aria-label={t('{{kind}} link, {{status}}', {
                kind: t(KIND[s.kind]),
                status: t(STATUS[s.status]),
              })}
              className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-3 last:border-b-0 dark:border-slate-800"
            >
              <Link2
                aria-hidden="true"
                className="size-4 shrink-0 text-indigo-600 dark:text-indigo-300"
              />
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium text-slate-900 dark:text-white">
                  {t(KIND[s.kind])} · {vaultName(s.vault_id)}{' '}
                  <span
                    className={`ml-1 rounded-full px-2 py-0.5 text-xs ${
                      s.status === 'active'
                        ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200'
                        : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
                    }`}
                  >
                    {t(STATUS[s.status])}
                  </span>
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {formatBytes(s.size)} · {t('made {{date}}', { date: formatDate(s.created_at) })} ·{' '}
                  {expiresIn(s.expires_at)} · {opensText(s)}
                </p>
              </div>
              {s.status === 'active' && (
                <>
                  <button
                    type="button"
                    onClick={() => void copy(s)}
                    className={buttonClass('secondary')}
                  >
                    {t('Copy link')}
                  </button>
                  <label className="sr-only" htmlFor={`expiry-${s.id}`}>
                    {t('New expiry')}
                  </label>
                  <select
                    id={`expiry-${s.id}`}
                    value=""
                    onChange={(e) =>
                      extend.mutate({ id: s.id, expires: e.target.value as ShareExpiry })
                    }
                    className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-white"
                  >
                    <option value="" disabled>
                      {t('Expire in...')}
                    </option>
                    {(Object.keys(EXPIRY_LABELS) as ShareExpiry[]).map((k) => (
                      <option key={k} value={k}>
                        {t('{{time}} from now', { time: t(EXPIRY_LABELS[k]) })}
                      </option>
                    ))}
                  </select>
                </>
              )}
              <button
                type="button"
                aria-label={s.status === 'active' ? t('Revoke this link') : t('Remove this link')}
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(s.id)}
                className={buttonClass('ghost', 'md', 'hover:!text-red-600')}
              >
                <Trash2 aria-hidden="true" className="size-4" />
                {s.status === 'active' ? t('Revoke') : t('Remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ShareDialog
        what={texting ? { kind: 'text' } : null}
        title={t('Send a text')}
        onClose={() => {
          setTexting(false);
          void reload();
        }}
      />
    </section>
  );
}
