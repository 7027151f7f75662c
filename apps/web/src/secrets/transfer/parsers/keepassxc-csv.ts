// KeePassXC's CSV export (Database > Export > CSV File): `"Group","Title","Username","Password",
// "URL","Notes"`, with `"TOTP"` since 2.6 (the entry's otp attribute, an otpauth URI) and `"Icon",
// "Last Modified","Created"` since 2.7. `Group` is the entry's group path, the root group first
// ("Root/Email"); as for a KDBX, the path below the root is the folder and the recycle bin is
// left out. A column not named here becomes a custom field; the icon and timestamps are named in
// the preview once for the file (issue 32).
import { formatNumber } from '../../../i18n/format.ts';
import { i18n } from '../../../i18n/i18n.ts';
import type { ParseResult, Skipped } from '../errors.ts';
import { common, type TransferItem } from '../model.ts';
import { readCsv, titleFor } from '../read.ts';

const MAPPED = ['group', 'title', 'username', 'password', 'url', 'notes', 'totp'];
const METADATA = ['icon', 'last modified', 'created'];
const RECYCLE_BIN = 'Recycle Bin';

export function parseKeePassXcCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'KeePassXC CSV');
  const skipped: Skipped[] = [];
  const items: TransferItem[] = [];
  let stamped = 0;
  for (const r of rows) {
    const url = r.get('url');
    const title = titleFor(r.get('title'), url);
    const path = r.get('group').split('/').slice(1);
    if (path[0] === RECYCLE_BIN) {
      skipped.push({
        entry: i18n.t('line {{line}} ("{{title}}")', { line: r.line, title: title }),
        reason: i18n.t('In the recycle bin'),
      });
      continue;
    }
    if (METADATA.some((c) => r.get(c) !== '')) stamped++;
    const folder = path.join('/');
    const totp = r.get('totp');
    items.push({
      ...common(title),
      notes: r.get('notes'),
      urls: url === '' ? [] : [url],
      ...(totp !== '' && { totp }),
      customFields: r
        .rest([...MAPPED, ...METADATA])
        .map(([name, value]) => ({ name, value, hidden: false })),
      ...(folder !== '' && { folder }),
      type: 'login',
      login: { username: r.get('username'), password: r.get('password') },
    });
  }
  if (stamped > 0) {
    skipped.push({
      entry:
        stamped === 1
          ? i18n.t('1 entry')
          : i18n.t('{{count}} entries', { count: formatNumber(stamped) }),
      reason: i18n.t("KeePassXC's icons and modification and creation times are not imported"),
    });
  }
  return { format: 'keepassxc-csv', items, skipped };
}
