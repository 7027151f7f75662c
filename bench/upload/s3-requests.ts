// What a tus upload costs in S3 requests with BLOB_STORE=s3 (issue 17): the server against s3rver
// (apps/server/src/testing/s3-server.ts) behind a proxy in this process that times every request,
// and an upload of N 4 MiB pieces sent from Node as the app sends them (one PATCH per piece with
// its Upload-Checksum). Prints each S3 request of the first PATCHes and of the last (which
// completes the upload), then a tally by operation: count, summed time, bytes.
// Run: node --import tsx bench/upload/s3-requests.ts [pieces, 256 = 1 GiB]
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';
import { startS3Server } from '../../apps/server/src/testing/s3-server.ts';
import { seedVault } from '../secrets/seed.ts';
import { sleep, startApp } from '../shared/app.ts';

const PIECES = Number(process.argv[2] ?? 256);
const PIECE = CONTENT_HASH_BLOCK_BYTES;
const SHOWN = 4; // PATCHes whose requests are listed, and the last one

interface Logged {
  at: number;
  method: string;
  status: number;
  /** The path with upload ids shortened to ID and the multipart upload id to U. */
  what: string;
  ms: number;
  bytes: number;
}
/** The S3 operation a request is (the SDK names most in `x-id`), and which object it is about. */
function operation({ method, what }: Logged): string {
  const named = /x-id=(\w+)/.exec(what)?.[1];
  const [target = '', query = ''] = what.split('?');
  const object = target.split('/').slice(2).join('/'); // '' for the bucket
  const op =
    named ??
    (method === 'POST' && /(^|&)uploads/.test(query)
      ? 'CreateMultipartUpload'
      : method === 'POST' && query.includes('uploadId')
        ? 'CompleteMultipartUpload'
        : method === 'POST' && query.startsWith('delete')
          ? 'DeleteObjects'
          : method === 'HEAD'
            ? 'HeadObject'
            : method === 'GET' && !object
              ? /(^|&)uploads/.test(query)
                ? 'ListMultipartUploads'
                : 'ListObjectsV2'
              : `${method} ${target}`);
  const kind = object.startsWith('blobs/')
    ? ' (blob)'
    : object.endsWith('.part')
      ? ' (.part)'
      : object.endsWith('.info')
        ? ' (.info)'
        : '';
  return op + kind;
}

const s3 = await startS3Server({ bucket: 'sealvault-bench' });
const upstream = new URL(s3.endpoint);
const log: Logged[] = [];
const t0 = performance.now();
const proxy = http.createServer((req, res) => {
  const start = performance.now();
  let bytes = 0;
  const forward = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (c: Buffer) => (bytes += c.length));
      answer.on('end', () =>
        log.push({
          at: Math.round(start - t0),
          method: req.method ?? '',
          status: answer.statusCode ?? 0,
          what: (req.url ?? '')
            .replace(/[0-9a-f]{32}/g, 'ID')
            .replace(/uploadId=[^&]+/, 'uploadId=U'),
          ms: Math.round(performance.now() - start),
          bytes,
        }),
      );
      answer.pipe(res);
    },
  );
  forward.on('error', () => res.destroy());
  req.on('data', (c: Buffer) => (bytes += c.length));
  req.pipe(forward);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const { port } = proxy.address() as AddressInfo;
const app = await startApp('s3-requests', {
  env: { ...s3.env(), AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}` },
});
try {
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  const vaultId = await seedVault(app.base, app.cookie, {
    name: 'Bench S3',
    type: 'files',
    password: 'bench-vault-password',
  });
  const piece = randomBytes(PIECE);
  const pieceOf = (i: number) => {
    piece.writeUInt32LE(i, 0); // not one repeated piece
    return piece;
  };
  const contentHash = createHash('sha256');
  for (let i = 0; i < PIECES; i++)
    contentHash.update(createHash('sha256').update(pieceOf(i)).digest());
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const meta = {
    vaultId,
    fileId: randomUUID(),
    checksum: contentHash.digest('hex'),
    encMeta: b64('x'.repeat(120)),
    lookup: randomBytes(32).toString('hex'),
    wrappedKey: b64('y'.repeat(60)),
    keyRevision: '0',
  };
  const headers = { origin: app.base, cookie: app.cookie, 'tus-resumable': '1.0.0' };
  // A fresh connection: hashing a large upload's pieces above can outlast the server's keep-alive.
  const created = await fetch(`${app.base}/api/uploads`, {
    method: 'POST',
    headers: {
      ...headers,
      connection: 'close',
      'upload-length': String(PIECES * PIECE),
      'upload-metadata': Object.entries(meta)
        .map(([k, v]) => `${k} ${b64(v)}`)
        .join(','),
    },
  });
  if (created.status !== 201) throw new Error(`create ${created.status} ${await created.text()}`);
  const url = new URL(created.headers.get('location')!, app.base).href;
  const started = performance.now();
  for (let i = 0; i < PIECES; i++) {
    const body = pieceOf(i);
    const mark = log.length;
    const t = performance.now();
    const r = await fetch(url, {
      method: 'PATCH',
      headers: {
        ...headers,
        'upload-offset': String(i * PIECE),
        'content-type': 'application/offset+octet-stream',
        'upload-checksum': `sha256 ${createHash('sha256').update(body).digest('base64')}`,
      },
      body,
    });
    const ms = performance.now() - t;
    if (r.status !== 204) throw new Error(`PATCH ${i}: ${r.status} ${await r.text()}`);
    if (i < SHOWN || i === PIECES - 1) {
      await sleep(50); // the last requests' 'end' events
      console.log(`PATCH ${i}: ${ms.toFixed(0)} ms`);
      for (const l of log.slice(mark))
        console.log(
          `  +${l.at} ms ${l.method} ${l.what} -> ${l.status}, ${l.ms} ms, ${l.bytes} bytes`,
        );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${PIECES} PATCHes of ${PIECE} bytes: ${seconds.toFixed(1)} s, ${((PIECES * PIECE) / 1e6 / seconds).toFixed(1)} MB/s`,
  );
  const tally = new Map<string, { n: number; ms: number; bytes: number }>();
  for (const l of log) {
    const key = `${operation(l)} ${l.status}`;
    const t = tally.get(key) ?? { n: 0, ms: 0, bytes: 0 };
    t.n += 1;
    t.ms += l.ms;
    t.bytes += l.bytes;
    tally.set(key, t);
  }
  console.log('S3 requests by operation and status: count, summed time, bytes (both ways)');
  for (const [key, t] of [...tally].sort((a, b) => b[1].ms - a[1].ms))
    console.log(
      `  ${key.padEnd(50)} ${String(t.n).padStart(5)} ${(t.ms / 1000).toFixed(1).padStart(6)} s ${(t.bytes / 2 ** 20).toFixed(0).padStart(6)} MiB`,
    );
} finally {
  await app.stop();
  proxy.closeAllConnections();
  proxy.close();
  await s3.close();
}
