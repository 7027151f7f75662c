// The files bench/files seeds, and what the UI must show for them. Names hold one word of WORDS,
// so typing QUERY narrows the list at every key (with 10,000 files: h 5,000, ha 3,500, har 2,500,
// harb 1,500, harbo 1,000, harbor 500 shown); sizes are all different, so each order has one
// first row. The records go straight into the database, their metadata encrypted with the vault's
// keys by the crypto package in Node; the list never reads blobs, so there are none.
// With `folders` (FOLDERS=500 in run.ts), folder records as the app makes them (ADR 0010: the folder
// MIME type, size 0, 88 bytes of ciphertext, the parent inside the metadata and in the name
// look-up): a tenth of them at the root, each holding nine of the rest; the files spread evenly
// over all of them (consecutive files share a folder), none at the root. Folder names hold no "h"
// and no ".", so searching QUERY (or ".") finds files only.
import { randomBytes, randomUUID } from 'node:crypto';
import { asFileId, asFolderId, FOLDER_MIME } from '@sealvault/crypto';
import { seedVaultWithKeys } from '../secrets/seed.ts';
import type { BenchApp } from '../shared/app.ts';

const WORDS = ['harbor', 'harbour', 'harbinger', 'hardware', 'harvest', 'happy', 'hamster']
  .concat(['holiday', 'photo', 'chess', 'invoice', 'budget', 'meeting', 'notes', 'resume'])
  .concat(['contract', 'scan', 'lecture', 'garden', 'travel']);
export const QUERY = 'harbor';
const KINDS = ['pdf', 'jpg', 'mp4', 'txt', 'mp3'];
const MIMES = ['application/pdf', 'image/jpeg', 'video/mp4', 'text/plain', 'audio/mpeg'];

export interface Seeded {
  vaultId: string;
  /** The heading's count text: "10000 files". */
  countText: string;
  /** QUERY's prefixes, one a key, and how many files each shows. */
  prefixes: string[];
  shownAfter: number[];
  /** The first row's name in each order. */
  firstByName: string;
  smallest: string;
  largest: string;
  /** With folders: how many are at the root, and a path down the tree with what each shows. */
  folders?: {
    atRoot: number;
    /** The first folder at the root by name, then its first subfolder, each with its first row. */
    top: { name: string; firstRow: string; items: number };
    sub: { name: string; firstRow: string; items: number };
  };
}

interface Rec {
  id: string;
  name: string;
  mime: string;
  size: number;
  at: string;
  folder?: string;
}

export async function seedFiles(
  app: BenchApp,
  count: number,
  password: string,
  folderCount = 0,
): Promise<Seeded> {
  // Folders: the first tenth at the root, each parent of nine of the rest ("Project 01/Part 3").
  const topCount = Math.ceil(folderCount / 10);
  const folders: Rec[] = Array.from({ length: folderCount }, (_, k) => {
    const parent = k < topCount ? undefined : Math.floor((k - topCount) / 9);
    return {
      id: randomUUID(),
      name:
        parent === undefined
          ? `Project ${String(k + 1).padStart(2, '0')}`
          : `Part ${((k - topCount) % 9) + 1}`,
      mime: FOLDER_MIME,
      size: 0,
      at: new Date(Date.UTC(2025, 11, 1) + k * 60_000).toISOString(),
      parentIndex: parent,
    };
  }).map(({ parentIndex, ...f }, _, all) => ({
    ...f,
    ...(parentIndex === undefined ? {} : { folder: all[parentIndex]!.id }),
  }));
  const files: Rec[] = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    name: `${WORDS[i % WORDS.length]}-${String(i).padStart(5, '0')}.${KINDS[i % 5]}`,
    mime: MIMES[i % 5]!,
    size: 1000 + ((i * 7919) % 5_000_000),
    at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    ...(folderCount ? { folder: folders[Math.floor((i * folderCount) / count)]!.id } : {}),
  }));
  const prefixes = [...QUERY].map((_, i) => QUERY.slice(0, i + 1));
  const all = [...folders, ...files];
  const shownAfter = prefixes.map((p) => all.filter((f) => f.name.includes(p)).length);
  if (all.filter((f) => f.name.includes('.')).length !== count)
    throw new Error('a folder name holds a "."');
  if (shownAfter.some((n, i) => n === 0 || (i > 0 && n >= shownAfter[i - 1]!)))
    throw new Error(`the query does not narrow the list at every key: ${shownAfter.join(', ')}`);
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }); // the app's
  const firstBy = (cmp: (a: Rec, b: Rec) => number, among: Rec[] = files) =>
    among.reduce((best, f) => (cmp(f, best) < 0 ? f : best)).name;
  const byName = (a: Rec, b: Rec) => collator.compare(a.name, b.name);
  /** What a folder shows first (folders first, then files, each by name) and how many rows. */
  const inside = (id: string) => {
    const kids = all.filter((f) => f.folder === id);
    const sub = kids.filter((f) => f.mime === FOLDER_MIME);
    return {
      firstRow: firstBy(byName, sub.length ? sub : kids),
      items: kids.length,
      sub: sub.length ? sub.reduce((b, f) => (byName(f, b) < 0 ? f : b)) : undefined,
    };
  };

  const {
    id: vaultId,
    client,
    session,
  } = await seedVaultWithKeys(app.base, app.cookie, {
    name: 'Bench',
    type: 'files',
    password,
  });
  const rows: unknown[][] = [];
  for (const { id, name, mime, size, at, folder } of all) {
    const meta = { name, mime, size, modified: Date.parse(at), ...(folder ? { folder } : {}) };
    rows.push([
      id,
      vaultId,
      await client.encryptMeta(session, asFileId(id), null, meta),
      await client.lookupName(session, folder ? asFolderId(folder) : null, name),
      randomBytes(60).toString('base64'),
      // vf1's 72-byte header and a 16-byte tag per 256 KiB chunk (one even when empty: a folder's
      // 88 bytes); the list does not check it.
      size + 72 + 16 * Math.max(1, Math.ceil(size / 262_144)),
      randomBytes(32).toString('hex'),
      randomBytes(16).toString('hex'),
      at,
      at,
    ]);
  }
  app.withDb((db) => {
    const { user_id } = db.prepare('select user_id from vaults where id = ?').get(vaultId) as {
      user_id: string;
    };
    const insert = db.prepare(
      `insert into vault_files (id, vault_id, enc_meta, name_lookup, wrapped_key, ciphertext_size,
         checksum, blob_key, created_at, updated_at, user_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => rows.forEach((r) => insert.run(...r, user_id)))();
  });
  let tree: Seeded['folders'];
  if (folderCount) {
    const roots = folders.filter((f) => !f.folder);
    const top = roots.reduce((b, f) => (byName(f, b) < 0 ? f : b));
    const t = inside(top.id);
    const s = inside(t.sub!.id);
    tree = {
      atRoot: roots.length,
      top: { name: top.name, firstRow: t.firstRow, items: t.items },
      sub: { name: t.sub!.name, firstRow: s.firstRow, items: s.items },
    };
    if (all.some((f) => !f.folder && f.mime !== FOLDER_MIME)) throw new Error('a file at the root');
  }
  return {
    vaultId,
    // The app writes counts with the locale's separators (formatNumber): 10,000 in en-US.
    countText: `${count.toLocaleString('en-US')} file${count === 1 ? '' : 's'}`,
    prefixes,
    shownAfter,
    firstByName: firstBy(byName),
    smallest: firstBy((a, b) => a.size - b.size),
    largest: firstBy((a, b) => b.size - a.size),
    ...(tree ? { folders: tree } : {}),
  };
}
