// The password CSV files browsers export. Chrome (and Edge, Brave): `name,url,username,password`
// and, since 2023, `note`. Firefox: `url,username,password,httpRealm,formActionOrigin,guid,
// timeCreated,timeLastUsed,timePasswordChanged`. Safari (and Apple Passwords):
// `Title,URL,Username,Password,Notes,OTPAuth`. Each row is one login. A column we do not map (a
// file the user picked the format for, or a newer browser's) becomes a custom field, so nothing
// of the file is dropped in silence (issue 32).
import { formatNumber } from '../../../i18n/format.ts';
import { i18n } from '../../../i18n/i18n.ts';
import type { ParseResult, Skipped } from '../errors.ts';
import { common, type TransferItem } from '../model.ts';
import { readCsv, titleFor, type CsvRow } from '../read.ts';

const LOGIN = ['url', 'username', 'password'];

function login(
  row: CsvRow,
  title: string,
  notes: string,
  totp: string,
  used: string[],
): TransferItem {
  const url = row.get('url');
  return {
    ...common(titleFor(title, url)),
    notes,
    urls: url === '' ? [] : [url],
    ...(totp !== '' && { totp }),
    customFields: row.rest([...LOGIN, ...used]).map(([name, value]) => ({
      name,
      value,
      hidden: false,
    })),
    type: 'login',
    login: { username: row.get('username'), password: row.get('password') },
  };
}

export function parseChromeCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'Chrome CSV');
  const items = rows.map((r) => login(r, r.get('name'), r.get('note'), '', ['name', 'note']));
  return { format: 'chrome-csv', items, skipped: [] };
}

/** Firefox's own bookkeeping: a record id and three timestamps. */
const FIREFOX_METADATA = ['guid', 'timeCreated', 'timeLastUsed', 'timePasswordChanged'];

export function parseFirefoxCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'Firefox CSV');
  const skipped: Skipped[] = [];
  const items = rows.map((r) => {
    const item = login(r, '', '', '', ['httpRealm', 'formActionOrigin', ...FIREFOX_METADATA]);
    const realm = r.get('httpRealm');
    if (realm !== '') item.customFields.push({ name: 'HTTP realm', value: realm, hidden: false });
    const action = r.get('formActionOrigin');
    // The origin a login form posts to; only worth keeping when it is not the site's own.
    if (action !== '' && action !== r.get('url')) {
      item.customFields.push({ name: 'Form action origin', value: action, hidden: false });
    }
    return item;
  });
  // One line for the whole file: every Firefox row has them.
  const stamped = rows.filter((r) => FIREFOX_METADATA.some((c) => r.get(c) !== '')).length;
  if (stamped > 0) {
    skipped.push({
      entry:
        stamped === 1
          ? i18n.t('1 entry')
          : i18n.t('{{count}} entries', { count: formatNumber(stamped) }),
      reason: i18n.t("Firefox's record ids and timestamps are not imported"),
    });
  }
  return { format: 'firefox-csv', items, skipped };
}

export function parseSafariCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'Safari CSV');
  const items = rows.map((r) =>
    login(r, r.get('title'), r.get('notes'), r.get('otpauth'), ['title', 'notes', 'otpauth']),
  );
  return { format: 'safari-csv', items, skipped: [] };
}
