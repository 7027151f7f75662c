// KeePass: KDBX 4 (and 3.1) databases and KeePass 2 XML exports, both read by kdbxweb, whose
// Argon2 runs on hash-wasm (crypto.ts). KeePass entries are generic: Title, UserName, Password,
// URL and Notes are the standard strings (KeePass's help, "Entries"), anything else a custom
// string (protected ones hidden). TOTP is read from every form these apps store
// (keepass-totp.ts); strings it cannot read stay custom fields. KeePass2Android's `KP2A_URL*`
// strings are more URLs. The group path below the root becomes the folder; the recycle bin is skipped.
import { DOMParser } from '@xmldom/xmldom';
import * as kdbxweb from 'kdbxweb';
import { i18n, msg } from '../../../i18n/i18n.ts';
import { argon2 } from '../crypto.ts';
import { ImportError, malformed, type ParseResult, type Skipped } from '../errors.ts';
import { common, type TransferItem } from '../model.ts';
import { keepassTotp } from './keepass-totp.ts';

let argon2Ready = false;
/** kdbxweb ships no Argon2: it gets hash-wasm's (v1.3; KeePass has written only v1.3). */
function installArgon2(): void {
  if (argon2Ready) return;
  argon2Ready = true;
  kdbxweb.CryptoEngine.setArgon2Impl(
    async (password, salt, memoryKiB, iterations, length, parallelism, type, version) => {
      if (version !== 0x13) {
        throw new kdbxweb.KdbxError(kdbxweb.Consts.ErrorCodes.Unsupported, 'Argon2 v1.0');
      }
      const variant = type === kdbxweb.CryptoEngine.Argon2TypeArgon2id ? 'argon2id' : 'argon2d';
      const out = await argon2(
        variant,
        new Uint8Array(password),
        new Uint8Array(salt),
        memoryKiB,
        iterations,
        parallelism,
        length,
      );
      return out.buffer;
    },
  );
}

const STANDARD = new Set(['Title', 'UserName', 'Password', 'URL', 'Notes']);

const text = (v: kdbxweb.KdbxEntryField | undefined): string =>
  v === undefined ? '' : typeof v === 'string' ? v : v.getText();

function convertEntry(entry: kdbxweb.KdbxEntry, folder: string | undefined, skipped: Skipped[]) {
  const get = (k: string) => text(entry.fields.get(k));
  const title = get('Title') || get('URL') || 'Untitled';
  const urls = [get('URL')];
  const customFields: TransferItem['customFields'] = [];
  const found = keepassTotp(get, title);
  const totp = found?.totp;
  for (const [name, value] of entry.fields) {
    if (STANDARD.has(name) || found?.used.includes(name)) continue;
    if (/^KP2A_URL(_\d+)?$/.test(name)) {
      urls.push(text(value));
      continue;
    }
    customFields.push({ name, value: text(value), hidden: typeof value !== 'string' });
  }
  // Tags and an expiry date are the user's own; Auto-Type settings have no place here.
  if (entry.tags.length > 0) {
    customFields.push({ name: 'Tags', value: entry.tags.join(', '), hidden: false });
  }
  const expiry = entry.times.expires ? entry.times.expiryTime : undefined;
  if (expiry) {
    customFields.push({ name: 'Expires', value: expiry.toISOString().slice(0, 10), hidden: false });
  }
  if (entry.autoType.defaultSequence || entry.autoType.items.length > 0) {
    skipped.push({ entry: title, reason: i18n.t('Auto-Type settings are not imported') });
  }
  for (const name of entry.binaries.keys()) {
    skipped.push({
      entry: title,
      reason: i18n.t('Attachment "{{name}}" is not imported', { name }),
    });
  }
  if (entry.history.length > 0) {
    skipped.push({ entry: title, reason: i18n.t('Entry history is not imported') });
  }
  const base = {
    ...common(title),
    notes: get('Notes'),
    urls: urls.filter((u) => u !== ''),
    customFields,
    ...(totp !== undefined && { totp }),
    ...(folder !== undefined && { folder }),
  };
  const login = { username: get('UserName'), password: get('Password') };
  if (login.username === '' && login.password === '' && base.urls.length === 0 && base.notes) {
    return { ...base, type: 'note' } as const;
  }
  return { ...base, type: 'login', login } as const;
}

function collect(db: kdbxweb.Kdbx, format: 'keepass-xml' | 'keepass-kdbx'): ParseResult {
  const items: TransferItem[] = [];
  const skipped: Skipped[] = [];
  const bin = db.meta.recycleBinEnabled ? db.meta.recycleBinUuid?.id : undefined;
  const walk = (group: kdbxweb.KdbxGroup, path: string[]) => {
    if (bin !== undefined && group.uuid.id === bin) {
      for (const e of group.allEntries()) {
        skipped.push({ entry: text(e.fields.get('Title')), reason: i18n.t('In the recycle bin') });
      }
      return;
    }
    const folder = path.length ? path.join('/') : undefined;
    for (const e of group.entries) items.push(convertEntry(e, folder, skipped));
    for (const g of group.groups) walk(g, [...path, g.name ?? '']);
  };
  for (const root of db.groups) walk(root, []);
  return { format, items, skipped };
}

const failure = (e: unknown, label: string): ImportError => {
  if (e instanceof kdbxweb.KdbxError) {
    if (e.code === kdbxweb.Consts.ErrorCodes.InvalidKey) {
      return new ImportError(
        'WRONG_PASSWORD',
        i18n.t(
          'The password is wrong for this KeePass database (a database that also needs a key file cannot be imported).',
        ),
      );
    }
    if (e.code === kdbxweb.Consts.ErrorCodes.Unsupported) {
      return new ImportError(
        'UNSUPPORTED',
        i18n.t('This {{label}} uses a feature we cannot read.', { label: i18n.t(label) }),
      );
    }
    return malformed(
      i18n.t('This {{label}} is damaged or not a KeePass file ({{reason}}).', {
        label: i18n.t(label),
        reason: e.message,
      }),
    );
  }
  return malformed(i18n.t('This {{label}} cannot be read.', { label: i18n.t(label) }));
};

/**
 * The first fault of XML that is not well-formed, with its line where the parser tells it
 * (kdbxweb reports none): the browser's own DOMParser, or outside browsers the parser kdbxweb
 * uses there (whose last error, or else first warning, is the one that names the cause).
 */
function xmlProblem(xml: string): { line?: string; reason: string } | undefined {
  if (typeof globalThis.DOMParser === 'function') {
    const doc = new globalThis.DOMParser().parseFromString(xml, 'text/xml');
    const error = doc.getElementsByTagName('parsererror')[0];
    if (!error) return undefined;
    // Chromium puts the message in a <div> between two headings.
    const text = (error.getElementsByTagName('div')[0] ?? error).textContent ?? '';
    // Chromium and Safari: "error on line 4 at column 20: ..."; Firefox: "Line Number 4, ...".
    const m = /line (\d+) at column \d+: ([^\n]+)/.exec(text);
    if (m) return { line: m[1], reason: (m[2] ?? '').replace(/[\s:.]+$/, '') };
    const line = /Line Number (\d+)/i.exec(text)?.[1];
    return { ...(line && { line }), reason: i18n.t('not well-formed') };
  }
  const errors: string[] = [];
  const warnings: string[] = [];
  new DOMParser({
    locator: {},
    errorHandler: {
      warning: (msg: unknown) => warnings.push(String(msg)),
      error: (msg: unknown) => errors.push(String(msg)),
      fatalError: (msg: unknown) => errors.push(String(msg)),
    },
  }).parseFromString(xml, 'text/xml');
  const problem = errors[errors.length - 1] ?? warnings[0];
  if (problem === undefined) return undefined;
  const line = /line:(\d+)/.exec(problem)?.[1];
  const reason = problem
    .replace(/^\[xmldom \w+\]\s*/, '')
    .replace(/^element parse error: (Error: )?/, '')
    .replace(/\s*@#\[line[\s\S]*$/, '')
    .trim();
  return { ...(line && { line }), reason };
}

export async function parseKeePassXml(xml: string): Promise<ParseResult> {
  const problem = xmlProblem(xml);
  if (problem) {
    throw malformed(
      problem.line
        ? i18n.t('This KeePass XML file is not well-formed XML near line {{line}}: {{reason}}.', {
            line: problem.line,
            reason: problem.reason,
          })
        : i18n.t('This KeePass XML file is not well-formed XML: {{reason}}.', {
            reason: problem.reason,
          }),
    );
  }
  installArgon2();
  let db: kdbxweb.Kdbx;
  try {
    const credentials = new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(''));
    db = await kdbxweb.Kdbx.loadXml(xml, credentials);
  } catch (e) {
    throw failure(e, msg('KeePass XML file'));
  }
  return collect(db, 'keepass-xml');
}

export async function parseKdbx(bytes: Uint8Array, password: string | undefined) {
  if (password === undefined) {
    throw new ImportError(
      'PASSWORD_REQUIRED',
      i18n.t('This KeePass database is password protected.'),
    );
  }
  installArgon2();
  let db: kdbxweb.Kdbx;
  try {
    const credentials = new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(password));
    const buffer = new Uint8Array(bytes).buffer;
    db = await kdbxweb.Kdbx.load(buffer, credentials);
  } catch (e) {
    throw failure(e, msg('KeePass database'));
  }
  return collect(db, 'keepass-kdbx');
}

/** A KDBX file begins with these two signatures (little-endian 0x9AA2D903, 0xB54BFB67). */
export const isKdbx = (b: Uint8Array): boolean =>
  [0x03, 0xd9, 0xa2, 0x9a, 0x67, 0xfb, 0x4b, 0xb5].every((v, i) => b[i] === v);
