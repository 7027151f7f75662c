// For a vault whose files live in a cloud account (issue 16, "Folder listing"): the vault's folder
// is listed and compared with the server's records. Blobs without a record (an upload whose record
// was never made, a file put there by hand) and records whose blob is missing (removed outside the
// app) are both reported to the user. Nothing is deleted: the user decides.
import { useQuery } from '@tanstack/react-query';
import { FolderSearch } from 'lucide-react';
import { storageOf } from '../storage/providers.ts';
import { providerInfo } from '../vaults/providers.tsx';
import { i18n, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export const folderTexts = {
  missing: (n: number, provider: string) =>
    n === 1
      ? i18n.t(
          '1 file of this vault has no data in its {{provider}} folder: it was removed or moved there. Such files cannot be opened.',
          { provider },
        )
      : i18n.t(
          '{{count}} files of this vault have no data in its {{provider}} folder: they were removed or moved there. Such files cannot be opened.',
          { count: formatNumber(n), provider },
        ),
  unrecorded: (n: number, provider: string) =>
    n === 1
      ? i18n.t(
          "The vault's {{provider}} folder holds 1 item this vault has no record of. It was left in place.",
          { provider },
        )
      : i18n.t(
          "The vault's {{provider}} folder holds {{count}} items this vault has no record of. They were left in place.",
          { count: formatNumber(n), provider },
        ),
};

export function CloudFolderNotice({ vaultId, refs }: { vaultId: string; refs: string[] }) {
  useTranslation(); // renders again when the language changes
  const storage = storageOf(vaultId);
  const name = providerInfo(storage.type).name;
  const held = useQuery({
    queryKey: ['cloud-blobs', vaultId, refs.length],
    queryFn: async () => new Set((await storage.list(vaultId)).map((b) => b.ref)),
    retry: false,
  });
  if (!held.data) return null;
  const recorded = new Set(refs);
  const missing = refs.filter((r) => !held.data.has(r)).length;
  const unrecorded = [...held.data].filter((r) => !recorded.has(r)).length;
  if (missing === 0 && unrecorded === 0) return null;
  return (
    <div
      role="status"
      className="mt-4 flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-200"
    >
      <FolderSearch aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="space-y-1">
        {missing > 0 && <p>{folderTexts.missing(missing, name)}</p>}
        {unrecorded > 0 && <p>{folderTexts.unrecorded(unrecorded, name)}</p>}
      </div>
    </div>
  );
}
