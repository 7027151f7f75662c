// The import and export dialogs' words for formats and item types, and which formats need a
// password (issue 20). Kept apart from import.ts so the dialogs load without the parsers.
import { msg } from '../../i18n/i18n.ts';
import type { ImportFormat } from './errors.ts';
import type { ItemType, TransferItem } from './model.ts';
import type { ImportPreview } from './preview.ts';

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  'sealvault-export': msg('SealVault encrypted export'),
  'bitwarden-json': 'Bitwarden JSON',
  'bitwarden-json-encrypted': msg('Bitwarden JSON (password protected)'),
  'bitwarden-csv': 'Bitwarden CSV',
  '1password-1pux': '1Password 1PUX',
  '1password-csv': '1Password CSV',
  'keepass-xml': 'KeePass 2 XML',
  'keepass-kdbx': 'KeePass KDBX',
  'chrome-csv': msg('Chrome passwords CSV'),
  'firefox-csv': msg('Firefox passwords CSV'),
  'safari-csv': msg('Safari passwords CSV'),
  'protonpass-json': 'Proton Pass JSON',
  'lastpass-csv': 'LastPass CSV',
  'nordpass-csv': 'NordPass CSV',
  'enpass-json': 'Enpass JSON',
  'enpass-csv': 'Enpass CSV',
  'keepassxc-csv': 'KeePassXC CSV',
  'roboform-csv': 'RoboForm CSV',
  'keeper-csv': 'Keeper CSV',
  'keeper-json': 'Keeper JSON',
  'dashlane-csv': msg('Dashlane CSV (one file of its ZIP)'),
  'dashlane-zip': msg('Dashlane CSV export (ZIP)'),
  'dashlane-json': 'Dashlane JSON',
};

/** Formats whose files are encrypted under a password the user must give. */
export const PROTECTED_FORMATS: ReadonlySet<ImportFormat> = new Set<ImportFormat>([
  'sealvault-export',
  'bitwarden-json-encrypted',
  'keepass-kdbx',
]);

export const TYPE_LABELS: Record<ItemType, string> = {
  login: msg('Logins'),
  card: msg('Payment cards'),
  note: msg('Secure notes'),
  identity: msg('Identities'),
  ssh: msg('SSH keys'),
  apikey: msg('API keys'),
  text: msg('Plain texts'),
};

/** `items` without the ones the preview found to be duplicates (in the file or the vault). */
export function withoutDuplicates(
  items: readonly TransferItem[],
  preview: Pick<ImportPreview, 'duplicates'>,
): TransferItem[] {
  const drop = new Set(preview.duplicates.map((d) => d.index));
  return items.filter((_, i) => !drop.has(i));
}
