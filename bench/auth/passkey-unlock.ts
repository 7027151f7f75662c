// Unlocking a vault with a passkey (the WebAuthn PRF extension) against unlocking it with its
// password (issue 30; docs/vault-format.md "Passkey slots"), in Chromium through the UI, with a
// virtual authenticator (the DevTools protocol's WebAuthn domain, PRF on, answering at once as a
// touch would). Each round: 'Lock Vault', open the vault from its card, then the click on
// 'Unlock with a passkey' (or 'Unlock' with the password typed) to the vault's 'Lock Vault'
// button. The two alternate, so both see the same load. A real authenticator adds the person's
// touch or biometric, which no bench measures.
// Usage (after `npm run build -w @sealvault/web`, or with WEB_DIST naming a build):
//   node --import tsx bench/auth/passkey-unlock.ts [rounds=10]
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, loadavg, startApp } from '../shared/app.ts';
import { signUp } from '../secrets/seed.ts';
import { newVault } from '../secrets/wizard.ts';

const ROUNDS = Number(process.argv[2] ?? 10);
const ACCOUNT_PASSWORD = 'account-password-1';
const VAULT_PASSWORD = 'tangerine-orbit-77';
const NAME = 'Bench vault';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length / 2;
  return s.length % 2 ? s[Math.floor(m)]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (xs: number[]) =>
  `${Math.min(...xs).toFixed(0)} / **${median(xs).toFixed(0)}** / ${Math.max(...xs).toFixed(0)} ms`;

const app = await startApp('passkey-unlock', {
  env: process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {},
});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const user = await signUp(
    app.base,
    app.logFile,
    `pk-${Date.now()}@example.test`,
    ACCOUNT_PASSWORD,
  );
  const ctx = await browser.newContext({ baseURL: app.base });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  });
  // signUp signed in by OPAQUE: its session cookie goes to the page's context.
  const cookies = user.cookie.split('; ').map((pair) => {
    const eq = pair.indexOf('=');
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: app.base };
  });
  await ctx.addCookies(cookies);

  // A secrets vault on our server, made through the wizard and unlocked as the secrets benches
  // make theirs (bench/secrets/wizard.ts), and a passkey added to it.
  await newVault(page, 'server', NAME, VAULT_PASSWORD);
  const card = page.getByRole('link', { name: NAME, exact: true });
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  const lock = page.getByRole('button', { name: 'Lock Vault' });
  await lock.waitFor();
  await page.getByRole('button', { name: 'Vault menu' }).click();
  await page.getByRole('menuitem', { name: 'Add a passkey' }).click();
  const passkeys = page.getByRole('dialog', { name: 'Vault passkeys' });
  await passkeys.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await passkeys.getByText('now unlocks this vault').waitFor({ timeout: 30_000 });
  await passkeys.getByRole('button', { name: 'Done' }).click();

  const times = { passkey: [] as number[], password: [] as number[] };
  const round = async (how: 'passkey' | 'password') => {
    await lock.click();
    await card.click();
    await unlock.waitFor();
    let t0: number;
    if (how === 'passkey') {
      const button = unlock.getByRole('button', { name: 'Unlock with a passkey' });
      await button.waitFor();
      t0 = performance.now();
      await button.click();
    } else {
      await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
      t0 = performance.now();
      await unlock.getByRole('button', { name: 'Unlock', exact: true }).click();
    }
    await lock.waitFor();
    return performance.now() - t0;
  };
  // One warm-up of each, not counted.
  for (let i = -1; i < ROUNDS; i++) {
    const p = await round('passkey');
    const w = await round('password');
    if (i >= 0) {
      times.passkey.push(p);
      times.password.push(w);
    }
  }
  console.log(`rounds: ${ROUNDS} each (after one warm-up), load ${loadavg()}`);
  console.log(
    `| Unlock with a passkey (PRF, virtual authenticator), click to unlocked | ${fmt(times.passkey)} |`,
  );
  console.log(
    `| Unlock with the password (Argon2id), click to unlocked | ${fmt(times.password)} |`,
  );
} finally {
  await browser.close();
  await app.stop();
}
