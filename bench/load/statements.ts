// The SQLite statement cache (apps/server/src/db/database.ts, withStatementCache): CPU per three
// Kysely queries of the shape an API request runs (a session lookup by token, a list of vaults, a
// session update) with the statements prepared anew each time, as Kysely does, and kept.
//   node --import tsx bench/load/statements.ts
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { withStatementCache } from '../../apps/server/src/db/database.ts';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stmt-'));
const raw = new SQLite(path.join(dir, 'a.db'));
raw.exec(
  'create table session (id text primary key, token text unique, user_id text, expires_at integer, ip text, ua text); create table vaults (id text primary key, user_id text, name text, created_at integer, size integer)',
);
for (let i = 0; i < 1000; i++) {
  raw
    .prepare('insert into session values (?,?,?,?,?,?)')
    .run(`s${i}`, `t${i}`, `u${i % 50}`, Date.now(), '127.0.0.1', 'ua');
  raw
    .prepare('insert into vaults values (?,?,?,?,?)')
    .run(`v${i}`, `u${i % 50}`, 'name', Date.now(), 1000);
}
type DB = {
  session: {
    id: string;
    token: string;
    user_id: string;
    expires_at: number;
    ip: string;
    ua: string;
  };
  vaults: { id: string; user_id: string; name: string; created_at: number; size: number };
};
const mk = (cached: boolean) =>
  new Kysely<DB>({
    dialect: new SqliteDialect({ database: cached ? withStatementCache(raw).database : raw }),
  });
async function round(k: Kysely<DB>, n: number) {
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const s = await k
      .selectFrom('session')
      .selectAll()
      .where('token', '=', `t${i % 1000}`)
      .executeTakeFirst();
    await k
      .selectFrom('vaults')
      .selectAll()
      .where('user_id', '=', s!.user_id)
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute();
    await k
      .updateTable('session')
      .set({ expires_at: Date.now() })
      .where('id', '=', s!.id)
      .execute();
  }
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000 / n;
}
const plain = mk(false),
  cached = mk(true);
await round(plain, 2000);
await round(cached, 2000);
const res: { plain: number[]; cached: number[] } = { plain: [], cached: [] };
for (let r = 0; r < 5; r++) {
  res.plain.push(await round(plain, 5000));
  res.cached.push(await round(cached, 5000));
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!.toFixed(3);
console.log(
  `ms of CPU per 3 queries (a session lookup, a list of 20 vaults, an update), median of 5 x 5,000: plain ${med(res.plain)}, cached ${med(res.cached)}; runs plain ${res.plain.map((x) => x.toFixed(3)).join(' ')}, cached ${res.cached.map((x) => x.toFixed(3)).join(' ')}`,
);
