// The fault tier's harness (npm run test:faults): the REAL server as a child process
// (bench/shared/app.ts: its own data dir, SIGKILL, restart on the same data dir), accounts with a
// files vault made through the API, and a tus client over plain node:http, so that a request can
// be held half-sent while the server is killed under it. The tus requests are the app's
// (storage/server/tus.ts): one 4 MiB block of the content hash per PATCH with its SHA-256 in
// Upload-Checksum, and the content hash at creation or, deferred, on the completing PATCH.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  CONTENT_HASH_BLOCK_BYTES,
  UPLOAD_CHECKSUM_HEADER,
  UPLOAD_FINAL_CHECKSUM_HEADER,
  UPLOADS_PATH,
} from '@sealvault/protocol';
import { sleep, startApp, type BenchApp, type StartAppOptions } from '../../../bench/shared/app.ts';

export { sleep };
export const MiB = 1024 * 1024;
const BLOCK = CONTENT_HASH_BLOCK_BYTES;

/**
 * The server on a throwaway data dir. Sign-up's rate limit (10 a minute per address) would
 * refuse the tier's accounts, which all come from 127.0.0.1.
 */
export async function startServer(tag: string, opts: StartAppOptions = {}): Promise<BenchApp> {
  const app = await startApp(`faults-${tag}`, {
    ...opts,
    env: { AUTH_RATE_LIMIT_MAX: '1000', ...opts.env },
  });
  // FAULTS_KEEP_LOGS=1 keeps each server's log (the data dir goes with stop()) to read a failure.
  if (!process.env.FAULTS_KEEP_LOGS) return app;
  const stop = app.stop.bind(app);
  app.stop = async () => {
    const kept = path.join(os.tmpdir(), `sealvault-faults-${tag}.log`);
    fs.copyFileSync(app.logFile, kept);
    console.log(`server log kept in ${kept}`);
    await stop();
  };
  return app;
}

export interface Account {
  cookie: string;
  vaultId: string;
}

/**
 * A files vault on our storage, made through the API. Its key slot is a placeholder of the right
 * shape: the server stores slots it cannot open, and no test here unlocks the vault, so the
 * Argon2id of a real one (bench/secrets/seed.ts, half a second of CPU each) is left out.
 */
export async function filesVault(app: BenchApp, cookie: string, name: string): Promise<string> {
  const id = randomUUID();
  const slot = {
    id: 'recovery',
    kind: 'recovery',
    kdf: { alg: 'none' },
    salt: randomBytes(16).toString('base64'),
    wrapped: randomBytes(60).toString('base64'),
  };
  const body = {
    id,
    name,
    vault_type: 'files',
    provider_type: 'server',
    key: { format: 'vf1', slots: [slot] },
  };
  const res = await send(
    app.base,
    'POST',
    '/api/vaults',
    { cookie, origin: app.base, 'content-type': 'application/json' },
    Buffer.from(JSON.stringify(body)),
  );
  if (res.status !== 201)
    throw new Error(`create vault: ${res.status} ${res.body.toString('utf8')}`);
  return id;
}

/** `n` accounts on the Unlimited plan (the app's first one included), each with a files vault. */
export async function accounts(app: BenchApp, n: number): Promise<Account[]> {
  const out = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const cookie = i === 0 ? app.cookie : await app.signUpAnother(`u${i}`);
      return { cookie, vaultId: await filesVault(app, cookie, `Files ${i}`) };
    }),
  );
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  return out;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request on its own connection. `body` may be a function that writes it (and may hold it
 * half-sent); a request the server drops (killed) rejects, as a client sees it.
 */
export function send(
  base: string,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: Buffer | ((req: http.ClientRequest) => Promise<void>),
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(pathname, base), { method, headers, agent: false });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A server may answer before it has read the whole body (a 507 when the disk fills under
      // it) and close the connection: the rest of the body then meets EPIPE or a reset. Its
      // answer is what counts; the error stands only if no answer follows.
      const cut = err.code === 'EPIPE' || err.code === 'ECONNRESET';
      if (cut && typeof body === 'function') setTimeout(() => reject(err), 2000);
      else reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    if (typeof body === 'function') body(req).catch(reject);
    else req.end(body);
  });
}

/** The `{ error: { code } }` of an API error answer, or null. */
export function errorCode(a: Answer): string | null {
  try {
    return (
      (JSON.parse(a.body.toString('utf8')) as { error?: { code?: string } }).error?.code ?? null
    );
  } catch {
    return null;
  }
}

/** The SHA-256 of each 4 MiB block of `data` (the last one may be shorter). */
export function blockDigests(data: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < data.length; at += BLOCK) {
    out.push(
      createHash('sha256')
        .update(data.subarray(at, at + BLOCK))
        .digest(),
    );
  }
  return out;
}

/**
 * [Note: content hash] in packages/protocol/src/files.ts, written out here as in
 * src/testing/files.ts (whose in-process helpers need the server tests' lib settings), so that
 * the server is not checked against its own code.
 */
export const contentHash = (data: Uint8Array, blocks = blockDigests(data)): string =>
  createHash('sha256').update(Buffer.concat(blocks)).digest('hex');

/** The tus Upload-Metadata header: comma-separated `key base64(value)` pairs. */
const metadataHeader = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');

/** One upload as the client knows it: what it sends, and where. */
export interface Upload {
  account: Account;
  fileId: string;
  bytes: Buffer;
  /** The content hash, given at creation or (deferred) on the completing PATCH. */
  checksum: string;
  /** Each block's SHA-256, the Upload-Checksum of a PATCH that sends that whole block. */
  blocks: Buffer[];
  deferred: boolean;
  location: string;
}

const tusHeaders = (app: BenchApp, cookie: string) => ({
  'tus-resumable': '1.0.0',
  cookie,
  origin: app.base,
});

/**
 * The headers of a tus creation (POST /api/uploads) of `length` bytes into the account's vault;
 * `checksum` null defers the content hash to the last PATCH.
 */
export function creationHeaders(
  app: BenchApp,
  account: Account,
  length: number,
  fileId: string,
  checksum: string | null,
): Record<string, string> {
  // The server cannot read the encrypted metadata: random bytes of the right shapes do.
  const meta: Record<string, string> = {
    vaultId: account.vaultId,
    fileId,
    encMeta: randomBytes(140).toString('base64'),
    lookup: randomBytes(32).toString('hex'),
    wrappedKey: randomBytes(60).toString('base64'),
    keyRevision: '0',
  };
  if (checksum) meta.checksum = checksum;
  return {
    ...tusHeaders(app, account.cookie),
    'upload-length': String(length),
    'upload-metadata': metadataHeader(meta),
  };
}

/** POST /api/uploads: creates the upload (no bytes yet). */
export async function createUpload(
  app: BenchApp,
  account: Account,
  bytes: Buffer,
  deferred: boolean,
): Promise<Upload> {
  const fileId = randomUUID();
  const blocks = blockDigests(bytes);
  const checksum = contentHash(bytes, blocks);
  const headers = creationHeaders(app, account, bytes.length, fileId, deferred ? null : checksum);
  const res = await send(app.base, 'POST', UPLOADS_PATH, headers);
  const location = res.headers.location;
  if (res.status !== 201 || !location) {
    throw new Error(`create: ${res.status} ${res.body.toString('utf8')}`);
  }
  return { account, fileId, bytes, checksum, blocks, deferred, location };
}

/** The end of the PATCH that starts at `offset`: the end of its 4 MiB block (or of the file). */
export const pieceEnd = (u: Upload, offset: number) =>
  Math.min(u.bytes.length, (Math.floor(offset / BLOCK) + 1) * BLOCK);

/** The SHA-256 of `body`, the bytes of `u` from `offset`: the block's own when it is one. */
const digestOf = (u: Upload, offset: number, body: Buffer) =>
  offset % BLOCK === 0 && body.length === pieceEnd(u, offset) - offset
    ? u.blocks[offset / BLOCK]!
    : createHash('sha256').update(body).digest();

/**
 * PATCHes bytes [offset, pieceEnd) with their Upload-Checksum (and, on the completing one, a
 * deferred content hash). `hold`: write only the first `hold.after` bytes of the body, then wait
 * for `hold.until`; then the body is never finished (a request in flight when the server dies),
 * or with `hold.finish` the rest is sent (a slow request another one races).
 */
export function patch(
  app: BenchApp,
  u: Upload,
  offset: number,
  hold?: { after: number; until: Promise<void>; holding: () => void; finish?: boolean },
): Promise<Answer> {
  const end = pieceEnd(u, offset);
  const body = u.bytes.subarray(offset, end);
  const headers: Record<string, string> = {
    ...tusHeaders(app, u.account.cookie),
    'content-type': 'application/offset+octet-stream',
    'upload-offset': String(offset),
    'content-length': String(body.length),
    [UPLOAD_CHECKSUM_HEADER]: `sha256 ${digestOf(u, offset, body).toString('base64')}`,
  };
  if (u.deferred && end === u.bytes.length) headers[UPLOAD_FINAL_CHECKSUM_HEADER] = u.checksum;
  if (!hold) return send(app.base, 'PATCH', u.location, headers, body);
  return send(app.base, 'PATCH', u.location, headers, async (req) => {
    await new Promise<void>((resolve) => req.write(body.subarray(0, hold.after), () => resolve()));
    hold.holding();
    await hold.until;
    if (hold.finish) req.end(body.subarray(hold.after));
    else req.destroy(); // the body is never finished: the server is killed meanwhile
  });
}

export const head = (app: BenchApp, u: Upload) =>
  send(app.base, 'HEAD', u.location, tusHeaders(app, u.account.cookie));

/** How a resumed upload ended: 'complete', or what stopped it (and the last exchange). */
export interface Resumed {
  outcome: string;
  detail: string;
}

/**
 * What a client does after losing its connection: HEAD for the offset, PATCH the rest (one
 * block at a time), until the server says the upload is complete. 423 (another request is
 * finishing it, e.g. the start-up sweep), 409 (an offset that moved meanwhile) and a refused
 * piece (460) are tried again shortly; any other answer, or still no end after `patienceMs`
 * ('stuck'), is the outcome that makes a test fail.
 */
export async function resume(app: BenchApp, u: Upload, patienceMs = 20_000): Promise<Resumed> {
  const until = Date.now() + patienceMs;
  let last = '';
  while (Date.now() < until) {
    const h = await head(app, u);
    last = `HEAD ${h.status} offset ${String(h.headers['upload-offset'])}`;
    if (h.status === 423) {
      await sleep(100);
      continue;
    }
    if (h.status !== 200) return { outcome: `HEAD ${h.status}`, detail: last };
    const offset = Number(h.headers['upload-offset']);
    if (offset === u.bytes.length) return { outcome: 'complete', detail: last };
    const p = await patch(app, u, offset);
    last = `PATCH at ${offset}: ${p.status} ${p.body.toString('utf8')}`;
    if (p.status === 204) continue;
    if (p.status === 409 || p.status === 423 || p.status === 460) {
      await sleep(100);
      continue;
    }
    return { outcome: `PATCH ${p.status}`, detail: last };
  }
  return { outcome: 'stuck', detail: last };
}

/** GET the file's ciphertext back. */
export async function download(app: BenchApp, u: Upload): Promise<Answer> {
  return send(app.base, 'GET', `/api/vaults/${u.account.vaultId}/files/${u.fileId}/content`, {
    cookie: u.account.cookie,
  });
}

/** Every blob file under DATA_DIR/blobs (not the store's temp dir), as its key. */
export function blobKeysOnDisk(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !path.relative(root, e.parentPath).startsWith('.tmp'))
    .map((e) => e.name);
}

/** The resident set of process `pid` (VmRSS in /proc/<pid>/status), in bytes. */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kib) throw new Error(`no VmRSS for ${pid}`);
  return Number(kib) * 1024;
}
