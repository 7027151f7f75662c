// [Note: shared locks] Locks that hold across instances (issue 17): several app processes may
// share one PostgreSQL database, each with its own DATA_DIR. PostgreSQL's session-level advisory
// locks (https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS) are held
// by one connection, so each lock takes a connection of its own from a small pool beside the
// app's, and gives it back when released; a connection that dies releases its locks with it.
// A lock's name is hashed to the 64-bit key with hashtextextended. On SQLite there is one
// process by design (its file lives in one DATA_DIR), so every lock is granted at once.
import pg from 'pg';
import type { Db } from './database.ts';

export interface SharedLocks {
  /** Takes `name` if nobody holds it; null when another connection (instance) holds it. */
  tryLock(name: string): Promise<HeldLock | null>;
  /** Waits for `name` (no limit) and takes it. */
  lock(name: string): Promise<HeldLock>;
  close(): Promise<void>;
}

export interface HeldLock {
  release(): Promise<void>;
}

const granted: HeldLock = { release: () => Promise.resolve() };

/** The locks of `db`: PostgreSQL advisory locks, or always granted on SQLite. */
export function sharedLocks(db: Db): SharedLocks {
  if (db.kind !== 'postgres') {
    return {
      tryLock: () => Promise.resolve(granted),
      lock: () => Promise.resolve(granted),
      close: () => Promise.resolve(),
    };
  }
  const app = db.raw as pg.Pool;
  // Its own pool: a lock held for a whole upload PATCH must not take a connection the app's
  // queries wait for. Same server and credentials as the app's pool.
  const pool = new pg.Pool({ ...app.options, max: 20, idleTimeoutMillis: 10_000 });
  pool.on('error', () => undefined); // an idle connection's error: the next connect() gets a new one

  async function take(name: string, wait: boolean): Promise<HeldLock | null> {
    const client = await pool.connect();
    try {
      if (wait) {
        await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
      }
      const { rows } = wait
        ? { rows: [{ ok: true }] }
        : await client.query<{ ok: boolean }>(
            'select pg_try_advisory_lock(hashtextextended($1, 0)) as ok',
            [name],
          );
      if (!rows[0]?.ok) {
        client.release();
        return null;
      }
    } catch (err) {
      client.release(err instanceof Error ? err : true);
      throw err;
    }
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        try {
          await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]);
          client.release();
        } catch (err) {
          // Destroying the connection ends its session, and the lock with it.
          client.release(err instanceof Error ? err : true);
        }
      },
    };
  }

  return {
    tryLock: (name) => take(name, false),
    lock: async (name) => (await take(name, true))!,
    close: () => pool.end(),
  };
}

/**
 * Runs `job` only if no other instance runs the job called `name` now, and says whether it ran.
 * For periodic work that must happen once per round, not once per instance (the sweeps).
 */
export async function runExclusive<T>(
  locks: SharedLocks,
  name: string,
  job: () => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  const held = await locks.tryLock(`sealvault:job:${name}`);
  if (!held) return { ran: false };
  try {
    return { ran: true, result: await job() };
  } finally {
    await held.release();
  }
}
