// What bench/secrets/provider.ts records of the page's requests (Playwright's request events): the
// request bodies sent to each destination while recording, and with BENCH_TRACE=1 a timeline of
// every request with its start and end.
import type { Request } from 'playwright-core';

export interface Sent {
  origin: string;
  method: string;
  path: string;
  bytes: number;
  start: number;
  end: number;
}

/**
 * The requests the page sends while recording, each with its start and end in ms from start();
 * `listen` and `finished` go to the context's request events.
 */
export class Traffic {
  private on = false;
  private t0 = 0;
  private open = new Map<Request, Sent>();
  requests: Sent[] = [];
  listen = (req: Request) => {
    if (!this.on) return;
    const u = new URL(req.url());
    const sent: Sent = {
      origin: u.origin,
      method: req.method(),
      path: u.pathname,
      bytes: req.postDataBuffer()?.length ?? 0,
      start: performance.now() - this.t0,
      end: NaN,
    };
    this.requests.push(sent);
    this.open.set(req, sent);
  };
  finished = (req: Request) => {
    const sent = this.open.get(req);
    if (sent) sent.end = performance.now() - this.t0;
    this.open.delete(req);
  };
  start() {
    this.requests = [];
    this.open.clear();
    this.t0 = performance.now();
    this.on = true;
  }
  stop() {
    this.on = false;
    return this.requests;
  }
}

/** The bytes of the request bodies sent to `origin` (GETs have none worth counting). */
export const sum = (reqs: Sent[], origin: string) =>
  reqs.filter((r) => r.origin === origin && r.method !== 'GET').reduce((s, r) => s + r.bytes, 0);

/** One line per request: its start and end, method, destination (unless `base`), path, bytes. */
export const timeline = (reqs: Sent[], base: string) =>
  reqs
    .map(
      (r) =>
        `    ${r.start.toFixed(0).padStart(5)}-${r.end.toFixed(0).padStart(5)} ms ${r.method} ${r.origin === base ? '' : r.origin}${r.path.replace(/[0-9a-f-]{36}/g, ':id')} ${r.bytes} B`,
    )
    .join('\n');
