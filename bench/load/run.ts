// Load check (issue 15): a mixed load with real sessions against the real server for 60 s, then
// a check that nothing was lost. Several accounts are signed up through the API, each with a
// secrets vault and a files vault made by the crypto package in Node (as bench/secrets does);
// workers (a closed loop each, spread over the accounts) list vaults, list and create secrets,
// upload small files through tus (creation, then one PATCH with its Upload-Checksum; the content
// hash in the metadata) and download them again. Reports requests/s, p50/p99 latency and errors
// per kind of request, the load average (the machine is shared: read the figures with it) and
// the server's RSS; then every created secret must be listed with the ciphertext sent, and every
// uploaded file listed and downloaded byte-identical.
// BENCH_LOAD_RATE=500 makes it an open loop instead (issue 31): operations start at that fixed
// rate whatever the answers' speed, and their latency counts from when each was due. Both modes
// report the server's CPU per request (from /proc over the measured window).
// Each account keeps its cookies as a browser does: a Set-Cookie answer (the session cache
// renewed, [Note: session cookie cache] in apps/server/src/auth/auth.middleware.ts) replaces them.
// BENCH_LOAD_ACCEPT_ENCODING="gzip, deflate, br, zstd" sends a browser's Accept-Encoding with every
// request (and decodes the answers, measure.ts): the path compress takes for a browser.
// Run: node --import tsx bench/load/run.ts [seconds] [concurrency] [accounts]
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { asItemId } from '@sealvault/crypto';
import { filesResponseSchema, secretsResponseSchema } from '@sealvault/protocol';
import { contentHash } from '../../apps/server/src/testing/content-hash.ts';
import { seedVault, seedVaultWithKeys } from '../secrets/seed.ts';
import { startApp } from '../shared/app.ts';
import { client, encodings, measure, summarize } from './measure.ts';
import { operations, type Account } from './ops.ts';

const SECONDS = Number(process.argv[2] ?? 60);
const CONCURRENCY = Number(process.argv[3] ?? 24);
const ACCOUNTS = Number(process.argv[4] ?? 8);
/** Operations started per second in the open loop (an upload is two requests); 0: closed loops. */
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 0);
if (!(RATE >= 0)) throw new Error('BENCH_LOAD_RATE: not a rate');
/** The secrets lists are asked again with If-None-Match, as the app's browser does (1). */
const REVALIDATE = process.env.BENCH_LOAD_REVALIDATE !== '0';
/** Secrets lists answered 304 (unchanged since this account's last read). */
let notModified = 0;
/** Secrets each vault starts with, so that a list is a real one from the first request. */
const SEEDED_SECRETS = 50;
/**
 * The mix, as the share of a worker's operations (an upload is two requests). BENCH_LOAD_MIX
 * changes shares, e.g. "upload=0,download=0,vaults=0.4,secrets=0.4" for sessions and secrets only.
 */
const MIX = { vaults: 0.3, secrets: 0.3, createSecret: 0.2, upload: 0.1, download: 0.1 };
for (const pair of process.env.BENCH_LOAD_MIX?.split(',').filter(Boolean) ?? []) {
  const [op = '', share = ''] = pair.split('=');
  if (!(op in MIX) || !(Number(share) >= 0)) throw new Error(`BENCH_LOAD_MIX: bad "${pair}"`);
  MIX[op as keyof typeof MIX] = Number(share);
}

const http = client(CONCURRENCY);

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
const loadBefore = load();
console.log(`load average before: ${loadBefore} (${os.cpus().length} cores)`);

const app = await startApp('load', { env: { AUTH_RATE_LIMIT_MAX: '1000' } });
const { base } = app;
try {
  // ---- accounts, vaults, a pool of encrypted secrets to create during the run ----
  const setupStart = performance.now();
  const cookies = [app.cookie];
  for (let i = 1; i < ACCOUNTS; i++) cookies.push(await app.signUpAnother(`load${i}`));
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  const perSecond = RATE > 0 ? RATE * 1.1 : 600;
  const expectedRuns = Math.ceil(((SECONDS + 5) * perSecond * MIX.createSecret) / ACCOUNTS) + 50;
  const accounts: Account[] = [];
  for (const [i, cookie] of cookies.entries()) {
    const password = `load-vault-${i}`;
    const secrets = await seedVaultWithKeys(base, cookie, {
      name: `Secrets ${i}`,
      type: 'secrets',
      password,
      secrets: SEEDED_SECRETS,
    });
    // Encrypted before the clock starts: the load is on the server, not on this process's AES.
    const pool: { id: string; data: string }[] = [];
    for (let k = 0; k < expectedRuns; k++) {
      const id = randomUUID();
      const data = await secrets.client.encryptItem(secrets.session, asItemId(id), 1, {
        title: `Load ${k}`,
        username: `load${k}@example.test`,
        password: randomBytes(12).toString('base64'),
        url: `https://load${k}.example.test`,
        notes: '',
      });
      pool.push({ id, data });
    }
    const files = await seedVault(base, cookie, { name: `Files ${i}`, type: 'files', password });
    accounts.push({
      cookie,
      secretsVault: secrets.id,
      filesVault: files,
      pool,
      created: new Map<string, string>(),
      uploaded: new Map<string, Buffer>(),
    });
  }
  console.log(
    `${ACCOUNTS} accounts, ${ACCOUNTS * 2} vaults, ${ACCOUNTS * SEEDED_SECRETS} secrets seeded in ` +
      `${((performance.now() - setupStart) / 1000).toFixed(1)} s`,
  );

  const { request, ops } = operations(base, http, REVALIDATE, () => notModified++);
  const pick = (): keyof typeof MIX => {
    let r = Math.random() * Object.values(MIX).reduce((a, b) => a + b, 0);
    for (const [op, share] of Object.entries(MIX) as [keyof typeof MIX, number][]) {
      if ((r -= share) < 0) return op;
    }
    return 'vaults';
  };
  /** CONCURRENCY workers, a closed loop each: the next operation when the last is answered. */
  const closedLoops = (stopped: () => boolean) =>
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      const a = accounts[w % accounts.length]!;
      while (!stopped()) await ops[pick()](a);
    });
  /**
   * RATE operations a second, each due at its slot of a fixed schedule and started then (or as
   * soon as the generator gets to it), over the accounts in turn, whatever is still in flight.
   */
  const openLoop = async (stopped: () => boolean) => {
    const start = performance.now();
    const inFlight = new Set<Promise<void>>();
    let started = 0;
    while (!stopped()) {
      const dueNow = Math.floor(((performance.now() - start) / 1000) * RATE);
      for (; started < dueNow; started++) {
        const due = start + (started * 1000) / RATE;
        const op = ops[pick()](accounts[started % accounts.length]!, due);
        inFlight.add(op);
        void op.finally(() => inFlight.delete(op));
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(inFlight);
  };

  // ---- the run: a few seconds of warm-up, then SECONDS measured ----
  /** The server's CPU seconds so far (utime + stime in /proc/<pid>/stat, at USER_HZ 100). */
  const serverCpu = () => {
    const stat = fs.readFileSync(`/proc/${app.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  const rss = () =>
    Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${app.pid}/status`, 'utf8'))?.[1]) / 1024;
  let stop = false;
  const workers = RATE > 0 ? [openLoop(() => stop)] : closedLoops(() => stop);
  await new Promise((r) => setTimeout(r, 3000));
  const rssBefore = rss();
  const cpuBefore = { server: serverCpu(), here: process.cpuUsage() };
  measure(true);
  const notModifiedBefore = notModified;
  const t0 = performance.now();
  // The window on the monotonic clock, in µs: a server CPU profile's timestamps are on the same
  // clock, so a script can keep the measured seconds only (BENCH_SERVER_NODE_ARGS="--cpu-prof").
  const window0 = process.hrtime.bigint() / 1000n;
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  measure(false);
  const window1 = process.hrtime.bigint() / 1000n;
  const notModifiedInWindow = notModified - notModifiedBefore;
  const elapsed = (performance.now() - t0) / 1000;
  const here = process.cpuUsage(cpuBefore.here);
  const cpu = {
    server: serverCpu() - cpuBefore.server,
    here: (here.user + here.system) / 1e6,
  };
  const rssAfter = rss();
  const loadAfter = load();
  stop = true;
  await Promise.all(workers);

  // ---- report ----
  const { table, errors, requests } = summarize(elapsed);
  const mix = Object.entries(MIX)
    .map(([op, share]) => `${op} ${share}`)
    .join(', ');
  const shape =
    RATE > 0
      ? `open loop at ${RATE} operations/s (at most ${CONCURRENCY} connections)`
      : `${CONCURRENCY} workers`;
  console.log(
    `\n${SECONDS} s, ${shape} over ${ACCOUNTS} accounts (Node ${process.version}); mix: ${mix}`,
  );
  console.log(table);
  console.log(
    `server RSS ${rssBefore.toFixed(0)} MiB at the start, ${rssAfter.toFixed(0)} at the end`,
  );
  console.log(
    `CPU over the run: server ${cpu.server.toFixed(1)} s, this load generator ${cpu.here.toFixed(1)} s ` +
      `(${elapsed.toFixed(0)} s on ${os.cpus().length} cores)`,
  );
  console.log(
    `server CPU per request: ${((cpu.server * 1000) / requests).toFixed(3)} ms ` +
      `(${requests} requests answered in the window)`,
  );
  console.log(
    REVALIDATE
      ? `secrets lists asked again with If-None-Match: ${notModifiedInWindow} answered 304`
      : 'secrets lists read whole every time (BENCH_LOAD_REVALIDATE=0)',
  );
  console.log(
    `Accept-Encoding sent: ${process.env.BENCH_LOAD_ACCEPT_ENCODING || 'none'}; answers by ` +
      `Content-Encoding: ${[...encodings].map(([e, n]) => `${e} ${n}`).join(', ')}`,
  );
  console.log(`load average before: ${loadBefore}; at the end of the run: ${loadAfter}`);
  console.log(`measured window, monotonic clock: ${window0}–${window1} µs`);

  // ---- nothing lost ----
  let secretsChecked = 0;
  let filesChecked = 0;
  const lost: string[] = [];
  for (const a of accounts) {
    const res = await request(a, 'GET', `/api/vaults/${a.secretsVault}/secrets`, {
      cookie: a.cookie,
    });
    const listed = new Map(
      secretsResponseSchema
        .parse(JSON.parse(res.body.toString('utf8')))
        .secrets.map((s) => [s.id, s.data]),
    );
    for (const [id, data] of a.created) {
      if (listed.get(id) !== data) lost.push(`secret ${id}`);
      secretsChecked += 1;
    }
    const files = await request(a, 'GET', `/api/vaults/${a.filesVault}/files`, {
      cookie: a.cookie,
    });
    const records = new Map(
      filesResponseSchema
        .parse(JSON.parse(files.body.toString('utf8')))
        .files.map((f) => [f.id, f]),
    );
    for (const [id, bytes] of a.uploaded) {
      const record = records.get(id);
      const content = await request(a, 'GET', `/api/vaults/${a.filesVault}/files/${id}/content`, {
        cookie: a.cookie,
      });
      if (
        record?.ciphertext_size !== bytes.length ||
        record.checksum !== contentHash(bytes) ||
        !content.body.equals(bytes)
      ) {
        lost.push(`file ${id}`);
      }
      filesChecked += 1;
    }
  }
  console.log(
    `lost: ${lost.length} (${secretsChecked} created secrets checked in their vaults' lists, ` +
      `${filesChecked} uploaded files in theirs and downloaded)` +
      (lost.length ? `: ${lost.slice(0, 5).join(', ')}` : ''),
  );
  if (lost.length || errors) process.exitCode = 1;
} finally {
  http.close();
  await app.stop();
}
