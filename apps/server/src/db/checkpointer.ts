// [Note: WAL checkpoints off the event loop] SQLite in WAL mode copies the log back into the
// database file (a checkpoint) inside the commit that takes the log past 1,000 pages, and syncs
// both files there: on this server's one connection that commit blocked the event loop for 4 to
// 14 ms, once 112 ms, every few seconds under a steady load of writes, and every request waiting
// behind it took that on (issue 31, the API's p99; bench/RESULTS.md "Speed II, fourth round").
// The server's connection no longer checkpoints on its own (wal_autocheckpoint = 0); a worker
// thread with a connection of its own runs a PASSIVE checkpoint every second: it copies what no
// reader still needs and never waits for the main connection, which goes on reading and
// writing meanwhile. Durability is unchanged (a commit is in the log, synced as before; the
// checkpoint's syncs move to the worker). Should the worker fail, the main connection checkpoints
// by itself again, as before. The test harness does not start one: its databases checkpoint as
// SQLite does by default.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** SQLite's default: the connection checkpoints when a commit takes the log past this many pages. */
const AUTOCHECKPOINT_PAGES = 1000;
export const CHECKPOINT_INTERVAL_MS = 1000;

// The worker's code, as a CommonJS script (no loader for TypeScript in a worker's eval).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const checkpoint = (id) => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ id, ok: true, log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, message: String(err && err.message) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (typeof m === 'number') checkpoint(m);
  if (m === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

export interface CheckpointResult {
  ok: boolean;
  /** Pages in the log, and how many of them are now in the database file (PASSIVE's answer). */
  log?: number;
  checkpointed?: number;
  message?: string;
}

export interface Checkpointer {
  /** Asks the worker for a checkpoint now; resolves with its result (tests). */
  checkpointNow(): Promise<CheckpointResult>;
  /** Stops the worker and closes its connection; the main connection checkpoints again. */
  stop(): Promise<void>;
}

/**
 * Moves `sqlite`'s checkpoints to a worker thread on `file` (the same database). `onFailure`
 * hears a failed checkpoint or a worker that stopped; the main connection then checkpoints
 * itself again.
 */
export function startCheckpointer(
  sqlite: SQLite.Database,
  file: string,
  onFailure: (message: string) => void,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, intervalMs, driver } });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  let running = true;
  let exited = false;
  const fallBack = (message: string) => {
    if (!running) return;
    running = false;
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    onFailure(message);
  };
  const waiting = new Map<number, (r: CheckpointResult) => void>();
  let asked = 0;
  worker.on('message', (r: CheckpointResult & { id?: number }) => {
    if (!r.ok) fallBack(r.message ?? 'checkpoint failed');
    if (r.id === undefined) return;
    waiting.get(r.id)?.(r);
    waiting.delete(r.id);
  });
  worker.on('error', (err) => fallBack(err.message));
  worker.on('exit', () => {
    exited = true;
    fallBack('checkpoint worker stopped');
    for (const w of waiting.values()) w({ ok: false, message: 'checkpoint worker stopped' });
    waiting.clear();
  });
  return {
    checkpointNow() {
      return new Promise((resolve) => {
        const id = ++asked;
        waiting.set(id, resolve);
        worker.postMessage(id);
      });
    },
    async stop() {
      running = false;
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      // A worker that already stopped (it could not open the file) has nothing left to close.
      if (exited) return;
      const gone = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await gone;
    },
  };
}
