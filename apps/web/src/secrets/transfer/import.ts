// The entry point of a secrets import (issue 20): recognise the file, refuse one over 50 MB,
// and hand it to its format's parser. Everything happens in the browser; nothing of the file
// leaves it. The result is previewed (preview.ts) and stored all at once, or not at all.
import {
  ImportError,
  malformed,
  type ImportFormat,
  type ImportOptions,
  type ParseResult,
} from './errors.ts';
import { i18n, msg } from '../../i18n/i18n.ts';
import { csvMatches, jsonMatches } from './detect.ts';
import { importEncrypted } from './export.ts';
import { parseBitwardenCsv } from './parsers/bitwarden-csv.ts';
import { parseBitwardenEncrypted } from './parsers/bitwarden-encrypted.ts';
import { parseBitwardenJson } from './parsers/bitwarden-json.ts';
import { parseChromeCsv, parseFirefoxCsv, parseSafariCsv } from './parsers/browser-csv.ts';
import { parseLastPassCsv } from './parsers/lastpass-csv.ts';
import { parseNordPassCsv } from './parsers/nordpass-csv.ts';
import { parseEnpassJson } from './parsers/enpass-json.ts';
import { parseEnpassCsv } from './parsers/enpass-csv.ts';
import { parseKeePassXcCsv } from './parsers/keepassxc-csv.ts';
import { parseRoboFormCsv } from './parsers/roboform-csv.ts';
import { parseKeeperCsv } from './parsers/keeper-csv.ts';
import { parseKeeperJson } from './parsers/keeper-json.ts';
import { parseDashlaneCsv } from './parsers/dashlane-csv.ts';
import { isDashlaneZip, parseDashlaneZip } from './parsers/dashlane-zip.ts';
import { parseDashlaneJson } from './parsers/dashlane-json.ts';
import { isKdbx, parseKdbx, parseKeePassXml } from './parsers/keepass.ts';
import { parseOnePasswordCsv } from './parsers/onepassword-csv.ts';
import { parseOnePux } from './parsers/onepux.ts';
import { parseProtonPassJson, protonPassZipJson } from './parsers/protonpass.ts';
import { isZip } from '../../archives/zip.ts';
import { csvHeader, decodeText, readImportZip, readJson } from './read.ts';

export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
export const TOO_LARGE_MESSAGE = msg(
  'This file is larger than 50 MB. Split it and import the parts.',
);

export interface ImportFile {
  name: string;
  bytes: Uint8Array;
}

/** The paths in a ZIP archive (none inflated); [] when it cannot be read, TOO_LARGE over a cap. */
function zipNames(bytes: Uint8Array): string[] {
  try {
    return readImportZip(bytes, '').names;
  } catch (e) {
    if (e instanceof ImportError && e.code === 'TOO_LARGE') throw e;
    return [];
  }
}

interface Sniffed {
  format: ImportFormat | undefined;
  text?: string;
  json?: unknown;
}

function sniff(fileName: string, bytes: Uint8Array): Sniffed {
  if (isKdbx(bytes)) return { format: 'keepass-kdbx' };
  if (isZip(bytes)) {
    const names = zipNames(bytes);
    if (names.includes('export.data')) return { format: '1password-1pux' };
    if (isDashlaneZip(names)) return { format: 'dashlane-zip' };
    if (names.some((n) => n.endsWith('data.json'))) {
      return { format: 'protonpass-json', json: protonPassZipJson(bytes) };
    }
    return { format: undefined };
  }
  const text = decodeText(bytes, msg('import'));
  const start = text.trimStart();
  if (start.startsWith('-----BEGIN PGP MESSAGE-----')) {
    throw new ImportError(
      'UNSUPPORTED',
      i18n.t(
        'This file is PGP-encrypted (an encrypted Proton Pass export?). Export it again without encryption.',
      ),
    );
  }
  if (start.startsWith('<')) {
    return {
      format: /<KeePassFile[\s>]/.test(start.slice(0, 4096)) ? 'keepass-xml' : undefined,
      text,
    };
  }
  if (start.startsWith('{') || start.startsWith('[')) {
    const json = readJson(text, 'JSON');
    return { format: jsonMatches(json)[0], text, json };
  }
  return { format: csvMatches(csvHeader(text), fileName)[0], text };
}

const UNKNOWN = msg(
  'This file is not recognised as a format we can import. Choose its format in the list if you know it. We read Bitwarden (JSON, CSV), 1Password (1PUX, CSV), KeePass (KDBX 4, XML), KeePassXC (CSV), Chrome, Firefox, Safari and Apple Passwords (CSV), Proton Pass (JSON), LastPass, NordPass and RoboForm (CSV), Keeper (CSV, JSON), Dashlane (CSV, ZIP, JSON), Enpass (JSON, CSV) and SealVault exports.',
);

/** The format of a file, or undefined when we cannot read it. Throws only for a malformed JSON. */
export function detectFormat(fileName: string, bytes: Uint8Array): ImportFormat | undefined {
  if (bytes.byteLength > MAX_IMPORT_BYTES) return undefined;
  try {
    return sniff(fileName, bytes).format;
  } catch {
    return undefined;
  }
}

/**
 * The items of an import file. Throws ImportError: TOO_LARGE (over MAX_IMPORT_BYTES, with
 * TOO_LARGE_MESSAGE), UNKNOWN_FORMAT, MALFORMED (naming the line or entry), PASSWORD_REQUIRED
 * and WRONG_PASSWORD (protected formats), UNSUPPORTED.
 */
export async function parseImport(
  file: ImportFile,
  options: ImportOptions = {},
): Promise<ParseResult> {
  if (file.bytes.byteLength > MAX_IMPORT_BYTES)
    throw new ImportError('TOO_LARGE', i18n.t(TOO_LARGE_MESSAGE));
  if (file.bytes.byteLength === 0) throw malformed(i18n.t('This file is empty.'));
  const sniffed = sniff(file.name, file.bytes);
  const format = options.format ?? sniffed.format;
  // A format the user chose over the detected one: read the file as that format needs it.
  let { text, json } = sniffed;
  if (format !== sniffed.format && !BINARY_FORMATS.has(format ?? '')) {
    text ??= decodeText(file.bytes, msg('import'));
    if (JSON_FORMATS.has(format ?? '')) json ??= readJson(text, 'JSON');
  }
  return parseAs(format, file, text ?? '', json, options);
}

const BINARY_FORMATS = new Set<string>(['1password-1pux', 'keepass-kdbx', 'dashlane-zip']);
const JSON_FORMATS = new Set<string>([
  'sealvault-export',
  'bitwarden-json',
  'bitwarden-json-encrypted',
  'protonpass-json',
  'enpass-json',
  'keeper-json',
  'dashlane-json',
]);

function parseAs(
  format: ImportFormat | undefined,
  file: ImportFile,
  text: string,
  json: unknown,
  options: ImportOptions,
): Promise<ParseResult> | ParseResult {
  switch (format) {
    case undefined:
      throw new ImportError('UNKNOWN_FORMAT', i18n.t(UNKNOWN));
    case 'sealvault-export':
      return importEncrypted(json, options.password);
    case 'bitwarden-json-encrypted':
      return parseBitwardenEncrypted(json, options.password);
    case 'bitwarden-json':
      return parseBitwardenJson(json);
    case 'protonpass-json':
      return parseProtonPassJson(json);
    case '1password-1pux':
      return parseOnePux(file.bytes);
    case 'keepass-kdbx':
      return parseKdbx(file.bytes, options.password);
    case 'keepass-xml':
      return parseKeePassXml(text);
    case 'bitwarden-csv':
      return parseBitwardenCsv(text);
    case '1password-csv':
      return parseOnePasswordCsv(text);
    case 'chrome-csv':
      return parseChromeCsv(text);
    case 'firefox-csv':
      return parseFirefoxCsv(text);
    case 'safari-csv':
      return parseSafariCsv(text);
    case 'lastpass-csv':
      return parseLastPassCsv(text);
    case 'nordpass-csv':
      return parseNordPassCsv(text);
    case 'enpass-json':
      return parseEnpassJson(json);
    case 'enpass-csv':
      return parseEnpassCsv(text);
    case 'keepassxc-csv':
      return parseKeePassXcCsv(text);
    case 'roboform-csv':
      return parseRoboFormCsv(text);
    case 'keeper-csv':
      return parseKeeperCsv(text);
    case 'keeper-json':
      return parseKeeperJson(json);
    case 'dashlane-csv':
      return parseDashlaneCsv(text);
    case 'dashlane-zip':
      return parseDashlaneZip(file.bytes);
    case 'dashlane-json':
      return parseDashlaneJson(json);
  }
}
