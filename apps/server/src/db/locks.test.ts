import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createLogger } from '../logger.ts';
import { startPeriodicJob } from '../jobs/periodic.ts';
import { createUploadLocker, LOCKED_STATUS } from '../files/upload-locks.ts';
import { runExclusive, sharedLocks, type SharedLocks } from './locks.ts';

let t: TestApp;
let a: SharedLocks;
let b: SharedLocks;

beforeAll(async () => {
  t = await createTestApp();
  // Two sets of locks on one database: as two instances would hold them.
  a = sharedLocks(t.db);
  b = sharedLocks(t.db);
});
afterAll(async () => {
  await a.close();
  await b.close();
  await t.close();
});

const onPostgres = () => t.db.kind === 'postgres';

describe('shared locks', () => {
  it('grants a lock to one holder at a time across instances, and again once released', async () => {
    const first = await a.tryLock('test:one');
    expect(first).not.toBeNull();
    const second = await b.tryLock('test:one');
    // On SQLite there is one process by design: every lock is granted.
    expect(second === null).toBe(onPostgres());
    await second?.release();
    const other = await b.tryLock('test:other');
    expect(other).not.toBeNull();
    await other!.release();
    await first!.release();
    const third = await b.tryLock('test:one');
    expect(third).not.toBeNull();
    await third!.release();
  });

  it('runs an exclusive job once when two instances start it together', async () => {
    let runs = 0;
    const job = async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 200));
      return runs;
    };
    const outcomes = await Promise.all([
      runExclusive(a, 'test-job', job),
      runExclusive(b, 'test-job', job),
    ]);
    expect(outcomes.filter((o) => o.ran)).toHaveLength(onPostgres() ? 1 : 2);
    expect(runs).toBe(onPostgres() ? 1 : 2);
  });

  it('runs a periodic pass on one instance per round, and logs which skipped', async () => {
    let runs = 0;
    const logger = createLogger('silent');
    const job = {
      name: 'test sweep',
      intervalMs: 3_600_000,
      run: async () => {
        runs += 1;
        await new Promise((r) => setTimeout(r, 200));
        return { n: runs };
      },
      worthLogging: () => false,
    };
    const one = startPeriodicJob(job, { logger, locks: a });
    const two = startPeriodicJob(job, { logger, locks: b });
    await Promise.all([one.runNow(), two.runNow()]); // the passes each started at once
    one.stop();
    two.stop();
    expect(runs).toBe(onPostgres() ? 1 : 2);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'refuses a second tus lock on an upload held by another instance with 423, then grants it',
    async () => {
      const id = 'a'.repeat(32);
      const held = createUploadLocker(a).newLock(id);
      await held.lock(new AbortController().signal, () => undefined);
      const other = createUploadLocker(b).newLock(id);
      const refused = await other
        .lock(new AbortController().signal, () => undefined)
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ status_code: LOCKED_STATUS });
      await held.unlock();
      await other.lock(new AbortController().signal, () => undefined);
      await other.unlock();
    },
  );
});
