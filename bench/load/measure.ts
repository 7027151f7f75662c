// The load check's measuring side (run.ts): an HTTP client on keep-alive connections, as a
// browser's, the latency and errors of each kind of request while the clock runs, and their
// summary as a Markdown table (count, requests/s, p50 and p99 latency, errors).
import http from 'node:http';
import zlib from 'node:zlib';

/**
 * BENCH_LOAD_ACCEPT_ENCODING, e.g. "gzip, deflate, br, zstd" (what a browser sends): every request
 * carries it and an encoded answer is decoded before it is read, so the bench takes the path the
 * server's compress middleware takes for a browser (issue 31). Unset: no Accept-Encoding, as before.
 */
const ACCEPT_ENCODING = process.env.BENCH_LOAD_ACCEPT_ENCODING ?? '';

/** An answer's body as the client reads it: decoded from its Content-Encoding. */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return body;
    case 'gzip':
      return zlib.gunzipSync(body);
    case 'deflate':
      return zlib.inflateSync(body);
    case 'br':
      return zlib.brotliDecompressSync(body);
    default:
      throw new Error(`Content-Encoding ${encoding}: not decoded here`);
  }
}

export interface Answer {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

/**
 * A request function over at most `sockets` keep-alive connections; close() ends them. A request
 * sent on a reused connection that the server had just closed as idle (its keep-alive timeout,
 * 5 s) fails with ECONNRESET before any answer: it is sent again once on a new connection, as a
 * browser does (and as Node's http documentation advises, `request.reusedSocket`). Without this,
 * an open loop that keeps few connections busy counted "socket hang up" errors (issue 31).
 */
export function client(sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const request = (
    base: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Buffer,
    retried = false,
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const sent = ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING, ...headers } : headers;
      const req = http.request(new URL(path, base), { method, headers: sent, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const body = decoded(Buffer.concat(chunks), res.headers['content-encoding']);
            encodings.set(
              res.headers['content-encoding'] ?? 'none',
              (encodings.get(res.headers['content-encoding'] ?? 'none') ?? 0) + 1,
            );
            resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
        res.on('error', reject);
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (!retried && req.reusedSocket && err.code === 'ECONNRESET') {
          resolve(request(base, method, path, headers, body, true));
        } else reject(err);
      });
      req.end(body);
    });
  return Object.assign(request, { close: () => agent.destroy() });
}

/** Answers per Content-Encoding ("none" without one), over the whole run. */
export const encodings = new Map<string, number>();

/** Latencies (ms) and errors (by answer) per kind of request, recorded while measuring. */
const stats = new Map<string, { ms: number[]; errors: Map<string, number> }>();
let measuring = false;

/** Starts (true) or stops (false) recording: the warm-up and the checks after are not counted. */
export const measure = (on: boolean) => {
  measuring = on;
};

/** Counts an error of `kind` that its status did not show (a download that is not the upload). */
export function countError(kind: string, why: string): void {
  const errors = stats.get(kind)?.errors;
  errors?.set(why, (errors.get(why) ?? 0) + 1);
}

/**
 * Runs one request of `kind`; any status but those in `ok` (or no answer at all) is an error.
 * `since` is when it was due (an open loop's schedule, run.ts): its latency counts from then, so a
 * request that waited for a connection or for the generator is not timed as if it had not.
 */
export async function timed(
  kind: string,
  ok: number[],
  run: () => Promise<Answer>,
  since = performance.now(),
): Promise<Answer> {
  const t0 = since;
  let res: Answer;
  try {
    res = await run();
  } catch (err) {
    res = { status: 0, body: Buffer.from((err as Error).message), headers: {} };
  }
  if (!measuring) return res;
  const s = stats.get(kind) ?? { ms: [], errors: new Map<string, number>() };
  stats.set(kind, s);
  s.ms.push(performance.now() - t0);
  if (!ok.includes(res.status)) {
    const why = `${res.status} ${res.body.toString('utf8').slice(0, 120)}`;
    s.errors.set(why, (s.errors.get(why) ?? 0) + 1);
  }
  return res;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The recorded requests over `seconds`, per kind and all together, and every error seen. */
export function summarize(seconds: number): { table: string; errors: number; requests: number } {
  const rows: string[] = [];
  const row = (kind: string, sorted: number[], errs: number) =>
    rows.push(
      `| ${kind} | ${sorted.length} | ${(sorted.length / seconds).toFixed(1)} | ` +
        `${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${errs} |`,
    );
  const all: number[] = [];
  let errors = 0;
  const detail: string[] = [];
  for (const [kind, s] of [...stats].sort(([a], [b]) => a.localeCompare(b))) {
    const errs = [...s.errors.values()].reduce((n, k) => n + k, 0);
    errors += errs;
    all.push(...s.ms);
    row(
      kind,
      [...s.ms].sort((x, y) => x - y),
      errs,
    );
    for (const [why, n] of s.errors) detail.push(`  error ${kind}: ${n} x ${why}`);
  }
  row(
    'all',
    all.sort((x, y) => x - y),
    errors,
  );
  const table = [
    '| request | count | req/s | p50 ms | p99 ms | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    ...detail,
  ].join('\n');
  return { table, errors, requests: all.length };
}
