// What an import hands back, and the one error it throws: a message written for the user that
// names the line (CSV) or the entry (JSON, XML) at fault, never the file's secret content.
import { i18n } from '../../i18n/i18n.ts';
import type { TransferItem } from './model.ts';

export const FORMATS = [
  'sealvault-export',
  'bitwarden-json',
  'bitwarden-json-encrypted',
  'bitwarden-csv',
  '1password-1pux',
  '1password-csv',
  'keepass-xml',
  'keepass-kdbx',
  'chrome-csv',
  'firefox-csv',
  'safari-csv',
  'protonpass-json',
  'lastpass-csv',
  'nordpass-csv',
  'enpass-json',
  'enpass-csv',
  'keepassxc-csv',
  'roboform-csv',
  'keeper-csv',
  'keeper-json',
  'dashlane-csv',
  'dashlane-zip',
  'dashlane-json',
] as const;
export type ImportFormat = (typeof FORMATS)[number];

/** Something of the file that was not imported: an attachment, an alias, a passkey... */
export interface Skipped {
  /** The entry it belongs to, as the user knows it: its title, or "line 12". */
  entry: string;
  reason: string;
}

export interface ParseResult {
  format: ImportFormat;
  items: TransferItem[];
  skipped: Skipped[];
}

export interface ImportOptions {
  /** For the password-protected formats (our export, Bitwarden's, KDBX). */
  password?: string;
  /** The format the user chose when it differs from the one detected (detectFormat). */
  format?: ImportFormat;
}

/**
 * The reasons an import stops. `code` lets the UI react (ask for a password, say it was wrong);
 * `message` is always safe and meant to be shown as it is.
 */
export type ImportErrorCode =
  | 'TOO_LARGE'
  | 'UNKNOWN_FORMAT'
  | 'MALFORMED'
  | 'PASSWORD_REQUIRED'
  | 'WRONG_PASSWORD'
  | 'UNSUPPORTED';

export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    readonly code: ImportErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const malformed = (message: string) => new ImportError('MALFORMED', message);

/** An entry's name in messages: its 1-based position and its title when it has one. */
export function entryName(index: number, title?: unknown): string {
  return typeof title === 'string' && title.trim() !== ''
    ? i18n.t('entry {{number}} ("{{title}}")', {
        number: index + 1,
        title: title.trim().slice(0, 80),
      })
    : i18n.t('entry {{number}}', { number: index + 1 });
}
