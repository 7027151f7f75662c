// For a vault whose provider keeps its files on this device only ("This browser"): its space, and a clear
// word when the vault is opened in another browser or device, whose files live elsewhere (their
// records are on the server, their bytes only in the browser that uploaded them). Without it such
// a vault would look as if its files were broken or gone.
import { useQuery } from '@tanstack/react-query';
import { HardDrive, MonitorSmartphone } from 'lucide-react';
import { formatBytes } from '@sealvault/protocol';
import { storageOf } from '../storage/providers.ts';
import { i18n, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export const localTexts = {
  elsewhere: (missing: number, total: number) =>
    missing === total
      ? i18n.t(
          'This vault\'s files live in another browser. Files of a "This browser" vault stay in the browser they were uploaded from: open the vault there to use them.',
        )
      : i18n.t(
          '{{missing}} of this vault\'s {{total}} files live in another browser. Files of a "This browser" vault stay in the browser they were uploaded from: open the vault there to use them.',
          { missing: formatNumber(missing), total: formatNumber(total) },
        ),
  space: (used: string, total: string) =>
    i18n.t('Stored in this browser only: {{used}} used of {{total}} available to this site.', {
      used,
      total,
    }),
};

export function LocalStorageNotice({ vaultId, refs }: { vaultId: string; refs: string[] }) {
  useTranslation(); // renders again when the language changes
  const local = storageOf(vaultId);
  const held = useQuery({
    queryKey: ['local-blobs', vaultId, refs.length],
    queryFn: async () => new Set((await local.list(vaultId)).map((b) => b.ref)),
  });
  const quota = useQuery({ queryKey: ['local-quota', refs.length], queryFn: () => local.quota() });
  const missing = held.data ? refs.filter((r) => !held.data.has(r)).length : 0;
  const { usedBytes, totalBytes } = quota.data ?? { usedBytes: null, totalBytes: null };
  return (
    <>
      {usedBytes !== null && totalBytes !== null && (
        <p className="mt-3 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <HardDrive aria-hidden="true" className="size-4" />
          {localTexts.space(formatBytes(usedBytes), formatBytes(totalBytes))}
        </p>
      )}
      {missing > 0 && (
        <p
          role="status"
          className="mt-4 flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-200"
        >
          <MonitorSmartphone aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {localTexts.elsewhere(missing, refs.length)}
        </p>
      )}
    </>
  );
}
