// Prometheus metrics (issue 33), served at GET /metrics to the holder of METRICS_TOKEN
// (metrics.routes.ts). Without the token nothing is counted at all (disabledMetrics). One registry
// per app, handed down as a dependency, never prom-client's global one, so that test apps in one
// process do not count into each other. [Note: metric labels] Labels take values from small,
// fixed sets only: the method, the route's pattern as registered (/api/vaults/:vaultId/...),
// never the path with its ids, the status, a job's name. With several instances each reports its
// own counters; the storage gauge reads the shared database, so every instance reports the same.
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { ServerVersion } from '../version.ts';

export interface Metrics {
  /** Counts one answered request: method, route pattern (never the raw path), status, seconds. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** Counts an upload whose file (or a move's copy) is now recorded, with its ciphertext bytes. */
  uploadFinished(bytes: number): void;
  /** Counts one pass of a periodic job that ran here (not one skipped for another instance). */
  jobRan(job: string, outcome: 'ok' | 'failed', at: Date): void;
  /** The exposition text (Prometheus text format) and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

/** Metrics off (METRICS_TOKEN unset): counts nothing, and nothing is served. */
export const disabledMetrics: Metrics = {
  request: () => undefined,
  uploadFinished: () => undefined,
  jobRan: () => undefined,
  scrape: () => Promise.reject(new Error('metrics are disabled')),
};

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds; uploads' PATCHes and downloads of large files take long, hence the top buckets. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createMetrics(deps: { db: Db; logger: Logger; version: ServerVersion }): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'sealvault_build_info',
    help: 'The running version and git commit (always 1).',
    labelNames: ['version', 'commit'],
    registers,
  }).set({ version: deps.version.version, commit: deps.version.commit }, 1);
  const requests = new Counter({
    name: 'sealvault_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'sealvault_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (until the handler returned), by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const uploads = new Counter({
    name: 'sealvault_uploads_completed_total',
    help: 'Uploads completed (a file record or a move copy made).',
    registers,
  });
  const uploadBytes = new Counter({
    name: 'sealvault_upload_bytes_total',
    help: 'Ciphertext bytes of the uploads completed.',
    registers,
  });
  const jobRuns = new Counter({
    name: 'sealvault_job_runs_total',
    help: 'Passes of a periodic job run by this instance.',
    labelNames: ['job'],
    registers,
  });
  const jobFailures = new Counter({
    name: 'sealvault_job_failures_total',
    help: 'Passes of a periodic job that failed (retried next round).',
    labelNames: ['job'],
    registers,
  });
  const jobLastSuccess = new Gauge({
    name: 'sealvault_job_last_success_timestamp_seconds',
    help: 'When a pass of the periodic job last succeeded on this instance (Unix time).',
    labelNames: ['job'],
    registers,
  });
  new Gauge({
    name: 'sealvault_storage_used_bytes',
    help: 'Ciphertext bytes stored on this server: files (trashed ones until purged) and file share links, as the storage quotas count them.',
    labelNames: ['kind'],
    registers,
    async collect() {
      // Read on each scrape; an error leaves the gauge out of this scrape rather than failing it.
      this.reset();
      try {
        const used = await storageUsedInTotal(deps.db);
        this.set({ kind: 'files' }, used.files);
        this.set({ kind: 'share_links' }, used.shareLinks);
      } catch (err) {
        deps.logger.warn(
          { err: err instanceof Error ? err.message : 'unknown' },
          'metrics: storage used unreadable',
        );
      }
    },
  });

  return {
    request(method, route, status, seconds) {
      const m = METHODS.has(method) ? method : 'OTHER';
      requests.inc({ method: m, route, status: String(status) });
      latency.observe({ method: m, route }, seconds);
    },
    uploadFinished(bytes) {
      uploads.inc();
      uploadBytes.inc(bytes);
    },
    jobRan(job, outcome, at) {
      jobRuns.inc({ job });
      if (outcome === 'failed') jobFailures.inc({ job });
      else jobLastSuccess.set({ job }, at.getTime() / 1000);
    },
    async scrape() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

/**
 * The bytes the storage quotas count (plans/limits.service.ts, storageUsed), over all users: two
 * sums, each one pass over its table.
 */
async function storageUsedInTotal(db: Db): Promise<{ files: number; shareLinks: number }> {
  const files = await db.kysely
    .selectFrom('vault_files')
    .select((eb) => eb.fn.sum<string | number | null>('ciphertext_size').as('bytes'))
    .where('storage_ref', 'is', null)
    .where('purged_at', 'is', null)
    .executeTakeFirst();
  const shares = await db.kysely
    .selectFrom('share_links')
    .select((eb) => eb.fn.sum<string | number | null>('ciphertext_size').as('bytes'))
    .where('kind', '=', 'file')
    .where('data_deleted_at', 'is', null)
    .executeTakeFirst();
  return { files: Number(files?.bytes ?? 0), shareLinks: Number(shares?.bytes ?? 0) };
}

/**
 * Counts every request once it is answered, under the pattern of the route that answered it
 * ([Note: metric labels]): after next(), Hono's route index is the handler's that responded.
 */
export function countRequests(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    metrics.request(
      c.req.method,
      routePath(c) || 'unmatched',
      c.res.status,
      (performance.now() - started) / 1000,
    );
  };
}
