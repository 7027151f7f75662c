// The files bench/files seeds, and what the UI must show for them. Names hold one word of WORDS,
// so typing QUERY narrows the list at every key (with 10,000 files: h 5,000, ha 3,500, har 2,500,
// harb 1,500, harbo 1,000, harbor 500 shown); sizes are all different, so each order has one
// first row. The records go straight into the database, their metadata encrypted with the vault's
// keys by the crypto package in Node; the list never reads blobs, so there are none.
import { randomBytes, randomUUID } from 'node:crypto';
import { asFileId } from '@sealvault/crypto';
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
}

export async function seedFiles(app: BenchApp, count: number, password: string): Promise<Seeded> {
  const files = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    name: `${WORDS[i % WORDS.length]}-${String(i).padStart(5, '0')}.${KINDS[i % 5]}`,
    mime: MIMES[i % 5]!,
    size: 1000 + ((i * 7919) % 5_000_000),
    at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  }));
  const prefixes = [...QUERY].map((_, i) => QUERY.slice(0, i + 1));
  const shownAfter = prefixes.map((p) => files.filter((f) => f.name.includes(p)).length);
  if (shownAfter.some((n, i) => n === 0 || (i > 0 && n >= shownAfter[i - 1]!)))
    throw new Error(`the query does not narrow the list at every key: ${shownAfter.join(', ')}`);
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }); // the app's
  const firstBy = (cmp: (a: (typeof files)[0], b: (typeof files)[0]) => number) =>
    files.reduce((best, f) => (cmp(f, best) < 0 ? f : best)).name;

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
  for (const { id, name, mime, size, at } of files) {
    const meta = { name, mime, size, modified: Date.parse(at) };
    rows.push([
      id,
      vaultId,
      await client.encryptMeta(session, asFileId(id), null, meta),
      await client.lookupName(session, null, name),
      randomBytes(60).toString('base64'),
      size + 72 + 16 * Math.ceil(size / 262_144),
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
  return {
    vaultId,
    countText: `${count} file${count === 1 ? '' : 's'}`,
    prefixes,
    shownAfter,
    firstByName: firstBy((a, b) => collator.compare(a.name, b.name)),
    smallest: firstBy((a, b) => a.size - b.size),
    largest: firstBy((a, b) => b.size - a.size),
  };
}
