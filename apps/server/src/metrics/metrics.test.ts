import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@sealvault/protocol';
import { sharedLocks } from '../db/locks.ts';
import { startPeriodicJob } from '../jobs/periodic.ts';
import { createLogger } from '../logger.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { fakeCiphertext, tus, uploadMetadata, userWithVault } from '../testing/files.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { createMetrics } from './metrics.ts';
import { METRICS_UNAUTHORIZED, sameToken } from './metrics.routes.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

let t: TestApp;
let off: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
  off = await createTestApp();
  user = await createUser(t);
});
afterAll(async () => {
  await t.close();
  await off.close();
});

const scrape = (app: TestApp, authorization?: string) =>
  app.app.request('/metrics', { headers: authorization ? { authorization } : {} });

/** The samples of the exposition text: `name{labels}` (as written) to value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

async function metricsText(): Promise<string> {
  const res = await scrape(t, `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('GET /metrics', () => {
  it('is a JSON 404 when METRICS_TOKEN is not set, token or not (never the web app)', async () => {
    for (const auth of [undefined, `Bearer ${TOKEN}`]) {
      const res = await scrape(off, auth);
      expect(res.status).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.code).toBe('not_found');
    }
  });

  it('refuses a missing, wrong or differently sent token with 401', async () => {
    for (const auth of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      'Bearer ',
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const res = await scrape(t, auth);
      expect(res.status, auth).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(errorBodySchema.parse(await res.json()).error).toEqual({
        code: 'unauthorized',
        message: METRICS_UNAUTHORIZED,
      });
    }
  });

  it('serves the Prometheus text to the token, and never logs it', async () => {
    const res = await scrape(t, `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).toContain('# TYPE sealvault_http_requests_total counter');
    expect(text).toContain('# TYPE sealvault_http_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toMatch(/^sealvault_build_info\{version="[^"]+",commit="[^"]+"\} 1$/m);
    expect(t.logs()).not.toContain(TOKEN);
  });

  it('counts requests by method, route pattern and status, never by the raw path', async () => {
    const vaultId = randomUUID();
    const shareId = randomUUID();
    const cookie = { cookie: user.cookie };
    for (let i = 0; i < 3; i++) {
      expect((await t.request(`/api/vaults/${vaultId}`, { headers: cookie })).status).toBe(404);
    }
    expect((await t.request(`/api/s/${shareId}`)).status).toBe(404);
    expect((await t.request('/api/health')).status).toBe(200);
    expect((await t.request(`/api/no/such/${vaultId}`)).status).toBe(404);
    const text = await metricsText();
    const s = samples(text);
    expect(
      s.get('sealvault_http_requests_total{method="GET",route="/api/vaults/:id",status="404"}'),
    ).toBe(3);
    expect(
      s.get('sealvault_http_requests_total{method="GET",route="/api/s/:id",status="404"}'),
    ).toBe(1);
    expect(
      s.get('sealvault_http_requests_total{method="GET",route="/api/health",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      s.get('sealvault_http_requests_total{method="GET",route="/api/*",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      s.get('sealvault_http_request_duration_seconds_count{method="GET",route="/api/vaults/:id"}'),
    ).toBe(3);
    expect(text).not.toContain(vaultId);
    expect(text).not.toContain(shareId);
  });

  it('counts completed uploads and their bytes, and reads the storage used on each scrape', async () => {
    const before = samples(await metricsText());
    expect(before.get('sealvault_uploads_completed_total')).toBe(0);
    const { user: owner, vaultId } = await userWithVault(t);
    const bytes = fakeCiphertext(50_000);
    const { created, patched } = await tus(t, owner.cookie).upload(
      uploadMetadata(vaultId, bytes),
      bytes,
    );
    expect([created.status, patched.status]).toEqual([201, 204]);
    const after = samples(await metricsText());
    expect(after.get('sealvault_uploads_completed_total')).toBe(1);
    expect(after.get('sealvault_upload_bytes_total')).toBe(bytes.length);
    expect(after.get('sealvault_storage_used_bytes{kind="files"}')).toBe(
      (before.get('sealvault_storage_used_bytes{kind="files"}') ?? 0) + bytes.length,
    );
    expect(after.get('sealvault_storage_used_bytes{kind="share_links"}')).toBe(0);
    expect(
      after.get(
        'sealvault_http_requests_total{method="PATCH",route="/api/uploads/:id",status="204"}',
      ),
    ).toBe(1);
  });
});

describe('job metrics', () => {
  it('counts the passes of a periodic job, its failures and its last success', async () => {
    const logger = createLogger('silent');
    const metrics = createMetrics({
      db: t.db,
      logger,
      version: { version: '1.2.3', commit: 'abc1234' },
    });
    const locks = sharedLocks(t.db);
    let fail = false;
    const job = startPeriodicJob(
      {
        name: 'test job',
        intervalMs: 3_600_000,
        run: () => (fail ? Promise.reject(new Error('boom')) : Promise.resolve({})),
        worthLogging: () => false,
      },
      { logger, locks, metrics, now: () => new Date(1_700_000_000_000) },
    );
    try {
      await job.runNow(); // the first pass started with the job
      await job.runNow();
      fail = true;
      await job.runNow();
    } finally {
      job.stop();
      await locks.close();
    }
    const s = samples((await metrics.scrape()).text);
    expect(s.get('sealvault_job_runs_total{job="test job"}')).toBe(3);
    expect(s.get('sealvault_job_failures_total{job="test job"}')).toBe(1);
    expect(s.get('sealvault_job_last_success_timestamp_seconds{job="test job"}')).toBe(
      1_700_000_000,
    );
    expect(s.get('sealvault_build_info{version="1.2.3",commit="abc1234"}')).toBe(1);
  });
});

describe('sameToken', () => {
  it('is true for the same token only, whatever the lengths', () => {
    expect(sameToken(TOKEN, TOKEN)).toBe(true);
    expect(sameToken(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(sameToken('', TOKEN)).toBe(false);
    expect(sameToken(TOKEN.toUpperCase(), TOKEN)).toBe(false);
  });
});
