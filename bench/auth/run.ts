// Sign-in time with OPAQUE against the old password sign-in (issue 30; docs/auth.md "OPAQUE"), in
// one run against the real server (Better Auth's own scrypt, N = 16384, r = 16):
// - API, from Node: an OPAQUE sign-in (login-start, the client's Argon2id, login-finish,
//   sign-in/email with the ticket) against the old one (sign-in/email with the password, checked
//   against a scrypt hash: an account from before OPAQUE, signed in the old way without moving);
//   the rounds alternate, so both see the same load;
// - Chromium, through the UI: the sign-in form's click to the dashboard, OPAQUE running in the
//   page's WASM (the only sign-in the web app still has).
// Medians (and min / max) of N rounds each. Usage (after `npm run build -w @sealvault/web`, or with
// WEB_DIST naming a build):
//   node --import tsx bench/auth/run.ts [rounds=20]
import { hashPassword } from 'better-auth/crypto';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, startApp } from '../shared/app.ts';
import { opaqueSignIn } from '../shared/opaque.ts';
import { signUp } from '../secrets/seed.ts';

const ROUNDS = Number(process.argv[2] ?? 20);
const PASSWORD = 'account-password-1';

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  const median = s.length % 2 ? s[Math.floor(mid)]! : (s[mid - 1]! + s[mid]!) / 2;
  return { min: s[0]!, median, max: s[s.length - 1]! };
};
const fmt = (xs: number[]) => {
  const { min, median, max } = stats(xs);
  return `${min.toFixed(0)} / **${median.toFixed(0)}** / ${max.toFixed(0)} ms`;
};

const app = await startApp('auth', {
  env: {
    // Forty sign-ins a minute to two accounts from one address: above the product's limits.
    AUTH_RATE_LIMIT_MAX: '100000',
    ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
  },
});
try {
  const origin = { origin: app.base };
  const opaqueUser = await signUp(
    app.base,
    app.logFile,
    `opaque-${Date.now()}@example.test`,
    PASSWORD,
  );
  // An account from before OPAQUE: its credential holds Better Auth's scrypt hash again.
  const legacyUser = await signUp(
    app.base,
    app.logFile,
    `legacy-${Date.now()}@example.test`,
    PASSWORD,
  );
  const legacyHash = await hashPassword(PASSWORD);
  app.withDb((db) =>
    db
      .prepare(
        `update account set password = ? where providerId = 'credential' and userId = (select id from user where email = ?)`,
      )
      .run(legacyHash, legacyUser.email),
  );

  const api = { opaque: [] as number[], old: [] as number[] };
  const time = async (run: () => Promise<Response>) => {
    const t0 = performance.now();
    const res = await run();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`sign-in answered ${res.status} ${await res.text()}`);
    return ms;
  };
  // One warm-up of each, not counted.
  for (let i = -1; i < ROUNDS; i++) {
    const o = await time(() => opaqueSignIn(app.base, origin, opaqueUser.email, PASSWORD));
    const l = await time(() =>
      fetch(`${app.base}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { ...origin, 'content-type': 'application/json' },
        body: JSON.stringify({ email: legacyUser.email, password: PASSWORD }),
      }),
    );
    if (i >= 0) {
      api.opaque.push(o);
      api.old.push(l);
    }
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const ui: number[] = [];
  const inPage: number[] = [];
  try {
    for (let i = -1; i < ROUNDS; i++) {
      const ctx = await browser.newContext({ baseURL: app.base });
      const page = await ctx.newPage();
      await page.goto('/auth');
      await page.getByLabel('Email').fill(opaqueUser.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      // The page's own work between the login's start answer and its finish request: the
      // library's Argon2id and key exchange in WASM.
      let started = 0;
      let finishing = 0;
      page.on('response', (r) => {
        if (r.url().endsWith('/opaque/login-start')) started = performance.now();
      });
      page.on('request', (r) => {
        if (r.url().endsWith('/opaque/login-finish')) finishing = performance.now();
      });
      const t0 = performance.now();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);
      if (i >= 0) {
        ui.push(performance.now() - t0);
        inPage.push(finishing - started);
      }
      await ctx.close();
    }
  } finally {
    await browser.close();
  }

  console.log(`rounds: ${ROUNDS} (after one warm-up each)`);
  console.log(
    `| API from Node, OPAQUE sign-in (4 requests, client Argon2id) | ${fmt(api.opaque)} |`,
  );
  console.log(
    `| API from Node, old password sign-in (1 request, server scrypt) | ${fmt(api.old)} |`,
  );
  console.log(`| Chromium UI, OPAQUE sign-in, click to dashboard | ${fmt(ui)} |`);
  console.log(`| of which the page's OPAQUE client (Argon2id, WASM) | ${fmt(inPage)} |`);
} finally {
  await app.stop();
}
