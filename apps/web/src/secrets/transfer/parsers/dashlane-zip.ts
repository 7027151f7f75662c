// Dashlane's CSV export as it downloads it: a ZIP of credentials.csv, securenotes.csv,
// payments.csv, ids.csv and personalInfo.csv (any of them may be missing, or hold only a header).
// Each is read by dashlane-csv.ts as the kind its name says; any other file of the archive is
// listed as not imported (issue 32).
import { i18n } from '../../../i18n/i18n.ts';
import type { ParseResult, Skipped } from '../errors.ts';
import type { TransferItem } from '../model.ts';
import { decodeText, readImportZip } from '../read.ts';
import { parseDashlaneCsv, type DashlaneFile } from './dashlane-csv.ts';

const FILES: Record<string, DashlaneFile> = {
  'credentials.csv': 'credentials',
  'securenotes.csv': 'securenotes',
  'payments.csv': 'payments',
  'ids.csv': 'ids',
  'personalinfo.csv': 'personalInfo',
};

const kindOf = (path: string): DashlaneFile | undefined =>
  FILES[(path.split('/').pop() ?? '').toLowerCase()];

/** Whether a ZIP's entry names are Dashlane's CSV export. */
export const isDashlaneZip = (names: readonly string[]): boolean =>
  names.some((n) => kindOf(n) === 'credentials' || kindOf(n) === 'securenotes');

export function parseDashlaneZip(bytes: Uint8Array): ParseResult {
  const { names, files } = readImportZip(
    bytes,
    i18n.t('This Dashlane export is not a readable zip archive.'),
    (name) => kindOf(name) !== undefined,
  );
  const items: TransferItem[] = [];
  const skipped: Skipped[] = [];
  for (const name of names) {
    const kind = kindOf(name);
    const data = files.get(name);
    if (kind === undefined || data === undefined) {
      if (!name.endsWith('/')) {
        skipped.push({ entry: name, reason: i18n.t('This file of the archive is not imported') });
      }
      continue;
    }
    const label = `Dashlane ${name}`;
    const text = decodeText(data, label);
    // Dashlane writes a file for every kind, empty when there is nothing of it.
    if (text.replace(/^\uFEFF/, '').trim() === '') continue;
    items.push(...parseDashlaneCsv(text, kind, label).items);
  }
  return { format: 'dashlane-zip', items, skipped };
}
