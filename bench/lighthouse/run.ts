// Benchmark (issue 17): Lighthouse's mobile performance score of the landing page (/), the sign-in
// page (/auth) and the signed-in dashboard, served by the real server from the built web app.
// Lighthouse 12's default config: the mobile preset (a mid-range phone's screen, 4x CPU slowdown,
// simulated slow 4G), performance category only. Debian's Chromium, started here with a DevTools
// port for Lighthouse to drive; nothing is downloaded. The dashboard's account is signed up
// through the API (bench/shared/app.ts) with a files vault and a secrets vault; its session
// cookies are put in Chromium's cookie jar before each signed-in run (and the jar emptied before
// the others), so that the server's Set-Cookie answers (a refreshed session) renew them as in a
// browser. A fixed Cookie header (Lighthouse's extraHeaders, as before) hid them from the API:
// while the server had a session cookie cache (26d9273 to 6ade05e) its answers became 401s a
// minute into the runs and the dashboard ended at /auth.
//
// The signed-in pages run in a Chromium profile of their own, as a returning user's browser: the
// public pages' visits (signed out) never touch its local storage, and one unmeasured load of
// each signed-in page first leaves that storage as the app leaves it for a signed-in user (the
// hint behind the dashboard's frame, [Note: dashboard frame before the app] in
// apps/web/index.html). Lighthouse still empties the HTTP cache before every run, so each run
// loads every byte again. LH_FIRST_VISIT=1 skips that first load and empties the local storage
// before each signed-in run: the signed-in pages are then measured as on a device that has not
// shown them since its last sign-in (the server's word on the session cookie still shows the
// frame: [Note: session hint in Server-Timing] in apps/server/src/web/static.ts).
//
// Each page is measured LH_RUNS times (3 by default), the pages taking turns so that a change in
// the machine's load falls on all of them; the table gives the median of each figure. The
// machine's load average is printed with it: Lighthouse simulates the network, but scales the
// CPU time it observes, so a busy machine lowers the score.
// Run: npm run build && node --import tsx bench/lighthouse/run.ts
//      (WEB_DIST=/some/dist serves another build; LH_OUT=dir keeps each run's report as JSON;
//      LH_PAGES=landing,auth measures only those; LH_RUNS=5 runs each page five times)
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';
import { seedVault } from '../secrets/seed.ts';
import { chromiumWithDevtools, freePort, startApp } from '../shared/app.ts';

const RUNS = Number(process.env.LH_RUNS ?? 3);
const OUT = process.env.LH_OUT;
const FIRST_VISIT = process.env.LH_FIRST_VISIT === '1';
/** With LH_FIRST_VISIT=1, Lighthouse also empties the local storage (the hint) before each run. */
const signedInConfig: Config | undefined = FIRST_VISIT
  ? {
      extends: 'lighthouse:default',
      settings: {
        clearStorageTypes: [
          'file_systems',
          'shader_cache',
          'service_workers',
          'cache_storage',
          'local_storage',
        ],
      },
    }
  : undefined;
const PAGES = [
  { name: 'landing', path: '/', signedIn: false },
  { name: 'auth', path: '/auth', signedIn: false },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
].filter((p) => !process.env.LH_PAGES || process.env.LH_PAGES.split(',').includes(p.name));

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** Bytes over the wire for the whole page load. */
  bytes: number;
}

function figures(lhr: Result): Figures {
  const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    si: num('speed-index'),
    bytes: num('total-byte-weight'),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

async function main() {
  const loadBefore = load();
  const app = await startApp('lighthouse');
  try {
    await seedVault(app.base, app.cookie, {
      name: 'Documents',
      type: 'files',
      password: 'bench-vault-password',
    });
    await seedVault(app.base, app.cookie, {
      name: 'Passwords',
      type: 'secrets',
      password: 'bench-vault-password',
      secrets: 20,
    });

    const publicBrowser = await startChromium(app.dataDir, 'profile');
    const signedInBrowser = await startChromium(app.dataDir, 'profile-signed-in');
    browsers.push(publicBrowser, signedInBrowser);
    const flagsFor = (port: number): Flags => ({
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    await devtools(signedInBrowser.port, 'Storage.setCookies', {
      cookies: jarCookies(app.base, app.cookie),
    });
    if (!FIRST_VISIT) {
      for (const page of PAGES.filter((p) => p.signedIn)) {
        await lighthouse(`${app.base}${page.path}`, flagsFor(signedInBrowser.port));
      }
    }

    const results = new Map<string, Figures[]>(PAGES.map((p) => [p.name, []]));
    for (let run = 1; run <= RUNS; run++) {
      for (const page of PAGES) {
        const port = page.signedIn ? signedInBrowser.port : publicBrowser.port;
        const flags = flagsFor(port);
        const url = `${app.base}${page.path}`;
        if (page.signedIn) {
          await devtools(port, 'Storage.setCookies', { cookies: jarCookies(app.base, app.cookie) });
        } else {
          await devtools(port, 'Storage.clearCookies');
        }
        // On a busy machine Lighthouse now and then loses the trace's start (NO_NAVSTART) and
        // asks to be run again: that run is repeated, up to twice.
        let lhr: Result | undefined;
        for (let attempt = 1; ; attempt++) {
          const result = await lighthouse(url, flags, page.signedIn ? signedInConfig : undefined);
          if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
          lhr = result.lhr;
          if (lhr.runtimeError?.code !== 'NO_NAVSTART' || attempt === 3) break;
          console.error(`run ${run} ${page.name}: NO_NAVSTART, running it again`);
        }
        // The report is kept first, so that a failed run can be looked into.
        if (OUT) {
          fs.mkdirSync(OUT, { recursive: true });
          fs.writeFileSync(path.join(OUT, `${page.name}-${run}.json`), JSON.stringify(lhr));
        }
        if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
        // A signed-in page whose session did not reach the server would land on /auth.
        if (new URL(lhr.finalDisplayedUrl).pathname !== page.path) {
          throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}`);
        }
        const f = figures(lhr);
        results.get(page.name)!.push(f);
        console.error(
          `run ${run} ${page.name}: ${f.score} (LCP ${Math.round(f.lcp)} ms, TBT ${Math.round(f.tbt)} ms)`,
        );
      }
    }

    console.log(
      `Lighthouse ${lighthouseVersion()}, mobile preset, median of ${RUNS} runs` +
        (FIRST_VISIT ? ', signed-in pages as a first visit' : ''),
    );
    console.log(`load average ${loadBefore} at the start, ${load()} at the end\n`);
    console.log(
      '| page | score | FCP ms | LCP ms | TBT ms | CLS | Speed Index ms | KiB | scores |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const page of PAGES) {
      const rs = results.get(page.name)!;
      const m = (k: keyof Figures) => median(rs.map((r) => r[k]));
      console.log(
        `| ${page.path} | **${m('score')}** | ${m('fcp').toFixed(0)} | ${m('lcp').toFixed(0)} | ` +
          `${m('tbt').toFixed(0)} | ${m('cls').toFixed(3)} | ${m('si').toFixed(0)} | ` +
          `${(m('bytes') / 1024).toFixed(0)} | ${rs.map((r) => r.score).join(', ')} |`,
      );
    }
  } finally {
    for (const b of browsers) b.process.kill('SIGTERM');
    await app.stop();
  }
}

const browsers: { port: number; process: ChildProcess }[] = [];

/** A headless Chromium with its own profile and a DevTools port for Lighthouse. */
async function startChromium(dataDir: string, profile: string) {
  const port = await freePort();
  const { proc } = await chromiumWithDevtools(port, path.join(dataDir, profile));
  return { port, process: proc };
}

/** The cookies of a `Cookie` header, for the browser's jar at `base`. */
function jarCookies(base: string, cookie: string) {
  return cookie.split('; ').map((c) => {
    const eq = c.indexOf('=');
    return { name: c.slice(0, eq), value: c.slice(eq + 1), url: base, httpOnly: true };
  });
}

/** Sends one DevTools protocol command to the browser and waits for its answer. */
async function devtools(port: number, method: string, params: object = {}): Promise<void> {
  const { webSocketDebuggerUrl } = (await (
    await fetch(`http://127.0.0.1:${port}/json/version`)
  ).json()) as { webSocketDebuggerUrl: string };
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const answer = new Promise<{ error?: { message: string } }>((resolve) => {
    ws.onmessage = (e) => resolve(JSON.parse(String(e.data)) as { error?: { message: string } });
  });
  ws.send(JSON.stringify({ id: 1, method, params }));
  const { error } = await answer;
  ws.close();
  if (error) throw new Error(`${method}: ${error.message}`);
}

function lighthouseVersion(): string {
  const pkg = path.resolve(import.meta.dirname, '../../node_modules/lighthouse/package.json');
  return (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
}

await main();
