// The export dialog's file name and its words about what a plain CSV export leaves out
// (issue 20). Bitwarden's CSV has no place for cards, identities and SSH keys
// (parsers/bitwarden-csv.ts exportBitwardenCsv).
import { formatNumber } from '../../i18n/format.ts';
import { i18n } from '../../i18n/i18n.ts';
import type { TransferItem } from './model.ts';

const CSV_OMITS: ReadonlySet<TransferItem['type']> = new Set(['card', 'identity', 'ssh']);

/** `sealvault-<vault name>-<yyyy-mm-dd>[-plain].json|csv`, safe on every file system. */
export function exportFileName(vaultName: string, kind: 'encrypted' | 'json' | 'csv', at: Date) {
  const name =
    vaultName
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'vault';
  const day = at.toISOString().slice(0, 10);
  if (kind === 'encrypted') return `sealvault-${name}-${day}.json`;
  return `sealvault-${name}-${day}-plain.${kind === 'csv' ? 'csv' : 'json'}`;
}

/**
 * What a Bitwarden CSV export of `items` leaves out, in the user's words, or null when it keeps
 * them all.
 */
export function plainExportNotice(items: readonly TransferItem[]): string | null {
  const left = items.filter((i) => CSV_OMITS.has(i.type));
  if (left.length === 0) return null;
  const titles = left.slice(0, 5).map((i) => `"${i.title}"`);
  const list =
    left.length > 5
      ? i18n.t('{{names}} and {{count}} more', {
          names: titles.join(', '),
          count: formatNumber(left.length - 5),
        })
      : titles.join(', ');
  const count = formatNumber(left.length);
  return left.length === 1
    ? i18n.t(
        'Bitwarden CSV cannot hold payment cards, identities or SSH keys: {{count}} item is left out of this file ({{list}}). The JSON export keeps them.',
        { count, list },
      )
    : i18n.t(
        'Bitwarden CSV cannot hold payment cards, identities or SSH keys: {{count}} items are left out of this file ({{list}}). The JSON export keeps them.',
        { count, list },
      );
}
