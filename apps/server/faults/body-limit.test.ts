// A 64 MiB body to every route family of src/app.ts, against the real process: each answers
// 413 in the API's error shape, quickly, and the server's resident memory stays flat (VmRSS in
// /proc). src/http/body-limit.test.ts proves the same in-process by counting what is read; this
// tier adds what only a real socket shows: Node's parser, @hono/node-server's request stream,
// and what the process does with the bytes a client keeps sending after the 413. Each body is
// streamed from one reused 64 KiB chunk, once with a declared Content-Length and once chunked,
// and the client stops sending as soon as the answer arrives.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { ciphertextLength, errorBodySchema, UPLOADS_PATH } from '@sealvault/protocol';
import type { BenchApp } from '../../../bench/shared/app.ts';
import {
  accounts,
  creationHeaders,
  MiB,
  rssBytes,
  send,
  sleep,
  startServer,
  type Account,
} from './harness.ts';

let app: BenchApp;
let account: Account;
beforeAll(async () => {
  app = await startServer('bodies');
  account = (await accounts(app, 1))[0]!;
  // The free plan: its file size limit is what refuses a 64 MiB tus creation (tus bodies are
  // exempt from the 1 MiB limit; the upload's declared length is checked before a byte is read).
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'free'").run());
}, 120_000);
afterAll(() => app?.stop());

const BODY = 64 * MiB;
const CHUNK = Buffer.alloc(64 * 1024, 0x7b);
const chunked = { 'transfer-encoding': 'chunked' };
/** An answer slower than this is not "quick", even on two busy cores. */
const QUICK_MS = 3000;

interface BigAnswer {
  status: number;
  type: string;
  body: string;
  ms: number;
}

/**
 * Streams up to `total` bytes of body, stopping once answered; the answer and how long it took.
 * On a connection of its own, but keep-alive as a browser's: on a `Connection: close` request
 * the server closes its socket right after the 413 while the client is still writing, and the
 * reset can beat the answer to the client (EPIPE); on a keep-alive one it reads and drops what
 * follows the 413 for a moment (@hono/node-server's drain), so the answer gets read.
 */
function sendBig(
  method: string,
  path: string,
  headers: Record<string, string>,
  total: number,
  declare: boolean,
): Promise<BigAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(new URL(path, app.base), {
      method,
      agent,
      // Node frames a DELETE's body only when told to: say chunked outright.
      headers: { ...headers, ...(declare ? { 'content-length': String(total) } : chunked) },
    });
    req.on('close', () => agent.destroy());
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const ms = performance.now() - started;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body, ms });
      });
    });
    req.on('error', (err) => {
      if (!answered)
        resolve({ status: 0, type: '', body: err.message, ms: performance.now() - started });
    });
    const pump = () => {
      while (!answered && sent < total) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** Every route family of src/app.ts that takes a body, with the headers a client would send. */
function routes(): [
  family: string,
  method: string,
  path: string,
  headers: Record<string, string>,
][] {
  const v = account.vaultId;
  const json = { cookie: account.cookie, origin: app.base, 'content-type': 'application/json' };
  const form = { ...json, 'content-type': 'application/x-www-form-urlencoded' };
  const upload = creationHeaders(app, account, ciphertextLength(BODY), randomUUID(), null);
  return [
    ['auth', 'POST', '/api/auth/sign-up/email', json],
    ['auth', 'POST', '/api/auth/sign-in/email', json],
    ['me', 'PATCH', '/api/me', json],
    ['me', 'DELETE', '/api/me', json],
    ['vaults', 'POST', '/api/vaults', json],
    ['vaults', 'PATCH', `/api/vaults/${v}`, json],
    ['vaults', 'PUT', `/api/vaults/${v}/key`, json],
    ['vaults (manifest, 8 MiB)', 'PUT', `/api/vaults/${v}/manifest`, json],
    ['visibility', 'PATCH', `/api/vaults/${v}/visibility`, json],
    ['secrets', 'POST', `/api/vaults/${v}/secrets`, json],
    ['secrets', 'PUT', `/api/vaults/${v}/secrets/${randomUUID()}`, json],
    ['files (records)', 'POST', `/api/vaults/${v}/files`, json],
    ['files', 'PATCH', `/api/vaults/${v}/files/${randomUUID()}`, json],
    ['files (trash)', 'POST', `/api/vaults/${v}/files/trash`, json],
    ['uploads (tus creation)', 'POST', UPLOADS_PATH, upload],
    ['subscription', 'POST', '/api/subscription/upgrade', json],
    ['subscription', 'POST', '/api/subscription/admin-upgrade', json],
    ['payments', 'POST', '/api/payments/checkout', json],
    ['payments (IPN)', 'POST', '/api/payments/ipn', form],
    ['plans, limits, auth-config (read-only)', 'POST', '/api/plans', json],
    ['unknown API path', 'POST', '/api/nowhere', json],
    ['web app', 'POST', '/', json],
  ];
}

it('answers a 64 MiB body to every route family with a quick 413 JSON, memory flat', async () => {
  // Warm-up: every route once with a 2 MiB body, so code loaded on first use is not counted.
  for (const [, method, path, headers] of routes()) {
    await sendBig(method, path, headers, 2 * MiB, false);
  }
  const pid = app.pid;
  const before = rssBytes(pid);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rssBytes(pid));
      await sleep(20);
    }
  })();
  onTestFinished(() => {
    sampling = false; // also when an assertion below threw
  });

  const failures: string[] = [];
  let slowest = 0;
  for (const [family, method, path, headers] of routes()) {
    for (const declare of [true, false]) {
      const what = `${family}: ${method} ${path} (${declare ? 'Content-Length' : 'chunked'})`;
      const res = await sendBig(method, path, headers, BODY, declare);
      slowest = Math.max(slowest, res.ms);
      const error = errorBodySchema.safeParse(parse(res.body));
      if (
        res.status !== 413 ||
        !res.type.startsWith('application/json') ||
        error.data?.error.code !== 'payload_too_large' ||
        res.ms > QUICK_MS
      ) {
        failures.push(`${what}: ${res.status} ${res.type} ${res.body} in ${Math.round(res.ms)} ms`);
      }
    }
  }
  sampling = false;
  await sampler;
  const after = rssBytes(pid);
  console.log(
    `64 MiB bodies: slowest 413 in ${Math.round(slowest)} ms; server RSS ${mib(before)} MiB before, ` +
      `peak ${mib(peak)}, after ${mib(after)}`,
  );
  expect(failures).toEqual([]);
  expect(peak - before).toBeLessThan(64 * MiB);

  // And the server is still itself.
  expect((await send(app.base, 'GET', '/api/health', {})).status).toBe(200);
  const me = await send(app.base, 'GET', '/api/me', { cookie: account.cookie });
  expect(me.status).toBe(200);
});

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
const mib = (bytes: number) => (bytes / MiB).toFixed(0);
