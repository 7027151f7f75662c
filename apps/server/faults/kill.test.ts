// kill -9 in the middle of 50 concurrent uploads, three rounds on one data dir ([Note: recoverable
// finish] in src/files/uploads.finish.ts, against the real process): half the uploads are held
// mid-PATCH (part of a block's body sent, the rest never), the other half send their last PATCH
// together and the server is SIGKILLed once 1, 8 or 16 of those are answered (one figure per
// round), so that the kill finds them mid-body, in each step of their finish, or done. The
// server restarts on the same data dir (its start-up sweep runs) and each upload is resumed as a
// client would: HEAD, then PATCH the rest (resume() in harness.ts). Every one
// must end as a file record whose bytes are exactly what was sent; none may stay stuck (409/423
// for good) or be lost, and no blob may lie in DATA_DIR/blobs without a record (an orphan).
// Five accounts of ten uploads each: a user may have ten unfinished uploads at a time.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ciphertextLength, filesResponseSchema } from '@sealvault/protocol';
import type { BenchApp } from '../../../bench/shared/app.ts';
import {
  accounts,
  blobKeysOnDisk,
  createUpload,
  download,
  MiB,
  patch,
  pieceEnd,
  resume,
  send,
  sleep,
  startServer,
  type Account,
  type Upload,
} from './harness.ts';

const UPLOADS = 50;
const USERS = 5;
/**
 * The kill comes once this many last PATCHes have been answered (of 25 sent together), one
 * figure per round: so that it finds some mid-body, some finishing and some done, however fast
 * the machine is.
 */
const ANSWERED_BEFORE_KILL = [1, 8, 16];
const BLOCK = 4 * MiB;

let app: BenchApp;
let users: Account[];

beforeAll(async () => {
  const t0 = performance.now();
  app = await startServer('kill');
  const started = performance.now() - t0;
  users = await accounts(app, USERS);
  const ms = (n: number) => Math.round(n);
  console.log(
    `server up in ${ms(started)} ms, accounts in ${ms(performance.now() - t0 - started)}`,
  );
}, 120_000);
afterAll(() => app?.stop());

/** A small deterministic PRNG (mulberry32), so a round's layout can be replayed from its seed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Sends upload `u` until the kill. A held one (`holdBlock`) sends the blocks before that one,
 * then `holdAfter` (a fraction) of it, and holds the rest back. Any other sends every block but
 * the last, waits for `go` (so that all last PATCHes race the kill together), then the last.
 */
async function drive(
  u: Upload,
  plan: { holdBlock: number | null; holdAfter: number },
  at: { killed: Promise<void>; go: Promise<void>; positioned: () => void; answered: () => void },
): Promise<string> {
  for (let offset = 0, block = 0; ; block++) {
    const end = pieceEnd(u, offset);
    if (block === plan.holdBlock) {
      const after = Math.max(1, Math.floor((end - offset) * plan.holdAfter));
      const hold = { after, until: at.killed, holding: at.positioned };
      const res = await patch(app, u, offset, hold).catch(() => null);
      return res ? `held PATCH answered ${res.status}` : 'held mid-PATCH';
    }
    const last = end === u.bytes.length;
    if (last) {
      at.positioned();
      await at.go;
    }
    const res = await patch(app, u, offset).catch(() => null);
    if (!res) return last ? 'last PATCH cut' : `PATCH at ${offset} cut before the kill point`;
    if (res.status !== 204) return `PATCH at ${offset}: ${res.status} ${res.body.toString('utf8')}`;
    if (last) {
      at.answered();
      return 'last PATCH answered';
    }
    offset = end;
  }
}

/** A promise and the function that resolves it. */
function signal() {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

async function round(n: number) {
  const t0 = performance.now();
  const phases: string[] = [];
  const phase = (name: string) => phases.push(`${name} ${Math.round(performance.now() - t0)}`);
  const rand = random(n * 7919);
  const uploads = await Promise.all(
    Array.from({ length: UPLOADS }, (_, i) => {
      // 1 to 9 MiB (one to three blocks), more of them small: 3.7 MiB on average.
      const plain = MiB + Math.floor(rand() ** 2 * 8 * MiB);
      const bytes = randomBytes(ciphertextLength(plain));
      return createUpload(app, users[i % USERS]!, bytes, i % 3 === 0);
    }),
  );
  phase('created');

  const killed = signal();
  const go = signal();
  const inPosition = signal();
  const enoughAnswers = signal();
  let positioned = 0;
  let answered = 0;
  const at = {
    killed: killed.promise,
    go: go.promise,
    positioned: () => ++positioned === UPLOADS && inPosition.fire(),
    answered: () => ++answered >= ANSWERED_BEFORE_KILL[n - 1]! && enoughAnswers.fire(),
  };
  const fates = uploads.map((u, i) => {
    const blocks = Math.ceil(u.bytes.length / BLOCK);
    const plan = {
      holdBlock: i % 2 === 0 ? Math.floor(rand() * blocks) : null,
      holdAfter: 0.05 + rand() * 0.9,
    };
    return drive(u, plan, at);
  });
  await Promise.race([inPosition.promise, sleep(30_000)]);
  phase('in position');
  go.fire();
  await Promise.race([enoughAnswers.promise, sleep(15_000)]);
  await app.crash();
  killed.fire();
  phase('killed');
  const seen = await Promise.all(fates);
  const tally = Object.entries(
    seen.reduce<Record<string, number>>((t, f) => ({ ...t, [f]: (t[f] ?? 0) + 1 }), {}),
  );
  // Every upload reached its kill point: none failed on the way (a 5xx, a refused block).
  expect(seen.filter((f) => !/^(held mid-PATCH|last PATCH (answered|cut))$/.test(f))).toEqual([]);

  await app.restart();
  phase('restarted');
  const resumed = await Promise.all(uploads.map((u) => resume(app, u)));
  const notComplete = resumed.flatMap((r, i) =>
    r.outcome === 'complete' ? [] : [`${uploads[i]!.location}: ${r.outcome} (${r.detail})`],
  );
  expect(notComplete).toEqual([]);
  phase('resumed');

  // Each one is a file record, byte-identical to what was sent.
  for (const account of users) {
    const res = await send(app.base, 'GET', `/api/vaults/${account.vaultId}/files`, {
      cookie: account.cookie,
    });
    const listed = new Map(
      filesResponseSchema.parse(JSON.parse(res.body.toString('utf8'))).files.map((f) => [f.id, f]),
    );
    for (const u of uploads.filter((x) => x.account === account)) {
      expect(listed.get(u.fileId), u.location).toMatchObject({
        ciphertext_size: u.bytes.length,
        checksum: u.checksum,
      });
    }
  }
  const corrupt: string[] = [];
  for (let i = 0; i < uploads.length; i += 10) {
    await Promise.all(
      uploads.slice(i, i + 10).map(async (u) => {
        const got = await download(app, u);
        if (got.status !== 200 || !got.body.equals(u.bytes)) corrupt.push(u.location);
      }),
    );
  }
  expect(corrupt, 'downloads that are not what was sent').toEqual([]);

  phase('downloaded');
  // No orphan: the blobs on disk are exactly the records' blobs; no upload is left unfinished
  // and no finished upload's bytes linger in the tus store.
  const recorded = app.withDb((db) =>
    db.prepare('select blob_key from vault_files').pluck().all(),
  ) as string[];
  expect(blobKeysOnDisk(app.dataDir).sort()).toEqual(recorded.sort());
  expect(recorded).toHaveLength(UPLOADS * n); // the earlier rounds' files are all still there
  const unfinished = app.withDb((db) =>
    db.prepare("select id, state from file_uploads where state != 'done'").all(),
  );
  expect(unfinished).toEqual([]);
  const tusData = fs
    .readdirSync(path.join(app.dataDir, 'uploads'))
    .filter((name) => !name.endsWith('.json'));
  expect(tusData).toEqual([]);
  // And the server answered nothing with a 5xx meanwhile.
  const errors = fs
    .readFileSync(app.logFile, 'utf8')
    .split('\n')
    .filter((line) => /"status":5\d\d/.test(line));
  expect(errors).toEqual([]);
  const atKill = tally.map(([f, k]) => `${k} ${f}`).join(', ');
  console.log(`round ${n}: at the kill ${atKill}; ms: ${phases.join(', ')}`);
}

describe('kill -9 during 50 concurrent uploads', () => {
  it.each([1, 2, 3])(
    'round %i: every upload resumes to a byte-identical file; none stuck, no orphan blob',
    (n) => round(n),
    180_000,
  );
});
