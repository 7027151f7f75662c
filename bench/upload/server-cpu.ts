// Benchmark (issue 31): the server's CPU for a tus upload, without a browser on the same cores.
// A Node client sends the same random bytes, in 4 MiB PATCHes over one keep-alive connection,
// as the two uploads of bench/upload/run.ts do:
// - `plain`: the content hash given at creation, no per-PATCH checksum (run.ts's plain upload);
// - `checked`: each PATCH with its Upload-Checksum (SHA-256), the content hash deferred to the
//   last PATCH's Upload-Final-Checksum (what the app sends, [Note: deferred checksum]).
// Rounds take turns; each reports the server process's CPU seconds (user + system, from /proc)
// and the wall time. The client's own CPU is not the server's, so the two cores are shared less
// than with Chromium: these figures are the server's cost, not a user's speed.
// Run: node --import tsx bench/upload/server-cpu.ts [MiB] [rounds]
// (BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p" profiles the server, see app.ts.)
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import {
  CONTENT_HASH_BLOCK_BYTES,
  UPLOAD_CHECKSUM_HEADER,
  UPLOAD_FINAL_CHECKSUM_HEADER,
} from '@sealvault/protocol';
import { seedVault } from '../secrets/seed.ts';
import { startApp } from '../shared/app.ts';

const MIB = Number(process.argv[2] ?? 256);
const ROUNDS = Number(process.argv[3] ?? 3);
// BENCH_PIECE_KIB: another PATCH size (the fixed cost per PATCH shows in the difference).
const PIECE = Number(process.env.BENCH_PIECE_KIB ?? CONTENT_HASH_BLOCK_BYTES / 1024) * 1024;
const bytes = randomBytes(MIB * 1024 * 1024);
const pieces: Buffer[] = [];
for (let off = 0; off < bytes.length; off += PIECE) pieces.push(bytes.subarray(off, off + PIECE));
const digests = pieces.map((p) => createHash('sha256').update(p).digest());
const contentHash = createHash('sha256');
for (let off = 0; off < bytes.length; off += CONTENT_HASH_BLOCK_BYTES) {
  const block = bytes.subarray(off, off + CONTENT_HASH_BLOCK_BYTES);
  contentHash.update(createHash('sha256').update(block).digest());
}
const contentHex = contentHash.digest('hex');

/** utime and stime of `pid`, in seconds. */
function cpuOf(pid: number): { user: number; system: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(f[11]) / 100, system: Number(f[12]) / 100 };
}

const app = await startApp('server-cpu');
app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
const vaultId = await seedVault(app.base, app.cookie, {
  name: 'Bench',
  type: 'files',
  password: 'bench-vault-password',
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const b64 = (s: string) => Buffer.from(s).toString('base64');

function request(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(url, app.base),
      {
        method,
        agent,
        headers: { origin: app.base, cookie: app.cookie, 'Tus-Resumable': '1.0.0', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function upload(checked: boolean): Promise<void> {
  const meta: Record<string, string> = {
    vaultId,
    fileId: randomUUID(),
    encMeta: b64('x'.repeat(120)),
    lookup: randomBytes(32).toString('hex'),
    wrappedKey: b64('y'.repeat(60)),
    keyRevision: '0',
  };
  if (!checked) meta.checksum = contentHex;
  const created = await request('POST', '/api/uploads', {
    'Upload-Length': String(bytes.length),
    'Upload-Metadata': Object.entries(meta)
      .map(([k, v]) => `${k} ${b64(v)}`)
      .join(','),
  });
  if (created.status !== 201) throw new Error(`create ${created.status} ${created.text}`);
  const url = created.headers.location!;
  for (let i = 0; i < pieces.length; i++) {
    const headers: Record<string, string> = {
      'Upload-Offset': String(i * PIECE),
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': String(pieces[i]!.length),
    };
    if (checked) headers[UPLOAD_CHECKSUM_HEADER] = `sha256 ${digests[i]!.toString('base64')}`;
    if (checked && i === pieces.length - 1) headers[UPLOAD_FINAL_CHECKSUM_HEADER] = contentHex;
    const res = await request('PATCH', url, headers, pieces[i]);
    if (res.status !== 204) throw new Error(`patch ${res.status} ${res.text}`);
  }
}

const rows: { mode: string; cpu: number; wall: number }[] = [];
try {
  await upload(true); // warm-up (JIT, the file tables), not counted
  for (let r = 0; r < ROUNDS; r++) {
    for (const checked of r % 2 ? [true, false] : [false, true]) {
      const c0 = cpuOf(app.pid);
      const t0 = performance.now();
      await upload(checked);
      const wall = (performance.now() - t0) / 1000;
      const c1 = cpuOf(app.pid);
      const user = c1.user - c0.user;
      const system = c1.system - c0.system;
      const row = { mode: checked ? 'checked' : 'plain', cpu: user + system, wall };
      rows.push(row);
      console.log(
        `${row.mode.padEnd(8)} ${MIB} MiB: server CPU ${row.cpu.toFixed(2)} s (user ${user.toFixed(2)}, system ${system.toFixed(2)}), ${row.wall.toFixed(2)} s, load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
  }
  for (const mode of [...new Set(rows.map((r) => r.mode))]) {
    const cpu = rows
      .filter((r) => r.mode === mode)
      .map((r) => r.cpu)
      .sort((a, b) => a - b);
    const mid = cpu[Math.floor(cpu.length / 2)]!;
    console.log(
      `${mode}: server CPU min ${cpu[0]!.toFixed(2)} / median ${mid.toFixed(2)} / max ${cpu.at(-1)!.toFixed(2)} s`,
    );
  }
} finally {
  agent.destroy();
  await app.stop();
}
