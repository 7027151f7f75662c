// [Note: WAL checkpoints off the event loop] in checkpointer.ts, on a real SQLite file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';

const dirs: string[] = [];
const opened: SQLite.Database[] = [];
const running: Checkpointer[] = [];
afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const db of opened.splice(0)) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function database() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-checkpoint-'));
  dirs.push(dir);
  const file = path.join(dir, 'test.db');
  const db = new SQLite(file);
  opened.push(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table t (id integer primary key, v text not null)');
  return { db, file };
}

/** Writes `n` rows of 4 KiB in `n` commits: about two pages of log each. */
function write(db: SQLite.Database, n: number) {
  const insert = db.prepare('insert into t (v) values (?)');
  for (let i = 0; i < n; i++) insert.run('x'.repeat(4096));
}

const autocheckpoint = (db: SQLite.Database) =>
  (db.pragma('wal_autocheckpoint') as { wal_autocheckpoint: number }[])[0]?.wal_autocheckpoint;

describe('the checkpointer', () => {
  it('leaves the log to its worker, which copies it back without the main connection', async () => {
    const { db, file } = database();
    const checkpointer = startCheckpointer(db, file, () => undefined, 60_000);
    running.push(checkpointer);
    expect(autocheckpoint(db)).toBe(0);
    write(db, 800);
    // 1,600 pages past SQLite's 1,000: the main connection did not checkpoint them.
    const walPages = fs.statSync(`${file}-wal`).size / 4096;
    expect(walPages).toBeGreaterThan(1500);
    const result = await checkpointer.checkpointNow();
    expect(result.ok).toBe(true);
    expect(result.log).toBeGreaterThan(1500);
    expect(result.checkpointed).toBe(result.log);
    // What the worker copied is what the main connection reads.
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 800 });
  });

  it('hands checkpoints back to the main connection when it stops', async () => {
    const { db, file } = database();
    const checkpointer = startCheckpointer(db, file, () => undefined, 60_000);
    expect(autocheckpoint(db)).toBe(0);
    await checkpointer.stop();
    expect(autocheckpoint(db)).toBe(1000);
  });

  it('hands them back, and says so, when the worker cannot open the database', async () => {
    const { db, file } = database();
    let heard = '';
    const failed = new Promise<void>((resolve) => {
      running.push(
        startCheckpointer(
          db,
          `${file}.missing`,
          (message) => {
            heard = message;
            resolve();
          },
          60_000,
        ),
      );
    });
    await failed;
    expect(heard).not.toBe('');
    expect(autocheckpoint(db)).toBe(1000);
    // Stopping a worker that has already stopped returns at once (afterEach stops it too).
    await running[0]!.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
