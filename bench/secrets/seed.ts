// Seeds an account through the real API: sign-up (by OPAQUE), the verification link from the server log
// (no SMTP_URL), sign-in, and vaults whose keys and secret items are made with the same crypto
// package the browser uses (in-process here). Used by the secrets benchmark and for screenshots.
import fs from 'node:fs';
import { asItemId, asVaultId, createCryptoClient, inProcessTransport } from '@sealvault/crypto';
import { opaqueRecordToken, opaqueSignIn } from '../shared/opaque.ts';

export interface Seeded {
  cookie: string;
  email: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function cookieOf(res: Response, jar = new Map<string, string>()): Map<string, string> {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return jar;
}
const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

export async function signUp(
  base: string,
  logFile: string,
  email: string,
  password: string,
  originUrl = base,
): Promise<Seeded> {
  const origin = { origin: originUrl, 'content-type': 'application/json' };
  // OPAQUE (docs/auth.md): a record token stands in for the password, a ticket at sign-in.
  const up = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: origin,
    body: JSON.stringify({
      name: 'Bench User',
      email,
      password: await opaqueRecordToken(base, { origin: originUrl }, password),
    }),
  });
  if (!up.ok) throw new Error(`sign-up: ${up.status} ${await up.text()}`);
  let link: string | undefined;
  // Up to 30 s: on a loaded 2-core CI machine the mail can be logged seconds after the answer.
  for (let i = 0; i < 300 && !link; i++) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    link = new RegExp(`to=${email.replace(/[.+]/g, '\\$&')} subject=[^\\n]*? link=(\\S+?)"`).exec(
      log,
    )?.[1];
    if (!link) await sleep(100);
  }
  if (!link) {
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-600) : '(none)';
    throw new Error(`no verification link in the server log; its end: ${tail}`);
  }
  // Straight to the server (the link names the public origin, which may be a proxy not up yet).
  const { pathname, search } = new URL(link);
  await fetch(`${base}${pathname}${search}`, { redirect: 'manual' });
  const signIn = await opaqueSignIn(base, { origin: originUrl }, email, password);
  if (!signIn.ok) throw new Error(`sign-in: ${signIn.status}`);
  return { cookie: header(cookieOf(signIn)), email };
}

export interface SeedVaultOptions {
  name: string;
  type: 'files' | 'secrets';
  password: string;
  secrets?: number;
  /** Where its files live; our server storage unless said. */
  provider?: 'server' | 'local';
}

export async function seedVault(
  base: string,
  cookie: string,
  opts: SeedVaultOptions,
  origin = base,
): Promise<string> {
  return (await seedVaultWithKeys(base, cookie, opts, origin)).id;
}

/** As seedVault, also handing back the open vault (to encrypt more records for it). */
export async function seedVaultWithKeys(
  base: string,
  cookie: string,
  opts: SeedVaultOptions,
  origin = base,
) {
  const headers = { origin, cookie, 'content-type': 'application/json' };
  const client = createCryptoClient(inProcessTransport());
  const id = crypto.randomUUID();
  const { session, key } = await client.createVault(asVaultId(id), opts.password);
  const res = await fetch(`${base}/api/vaults`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      id,
      name: opts.name,
      vault_type: opts.type,
      provider_type: opts.provider ?? 'server',
      key,
    }),
  });
  if (res.status !== 201) throw new Error(`create vault: ${res.status} ${await res.text()}`);
  const n = opts.secrets ?? 0;
  for (let start = 0; start < n; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - start) }, async (_, k) => {
        const i = start + k;
        const itemId = crypto.randomUUID();
        const data = await client.encryptItem(session, asItemId(itemId), 1, {
          title: `Account ${i}`,
          username: `user${i}@example.test`,
          password: `pw-${i}-${itemId.slice(0, 8)}`,
          url: `https://site${i}.example.test`,
          notes: i % 10 === 0 ? `Note for account ${i}` : '',
        });
        const r = await fetch(`${base}/api/vaults/${id}/secrets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ id: itemId, revision: 1, data, key_revision: 0 }),
        });
        if (r.status !== 201) throw new Error(`secret ${i}: ${r.status}`);
      }),
    );
  }
  return { id, client, session };
}

/** A plain Bitwarden JSON export of `n` logins, as Bitwarden writes one. */
export function bitwardenJson(n: number): Buffer {
  const items = Array.from({ length: n }, (_, i) => ({
    id: crypto.randomUUID(),
    folderId: null,
    type: 1,
    reprompt: 0,
    name: `Site ${i}`,
    notes: i % 7 === 0 ? `note ${i}\nsecond line` : null,
    favorite: false,
    fields: [{ name: 'PIN', value: String(i), type: 1 }],
    login: {
      uris: [{ match: null, uri: `https://site${i}.example` }],
      username: `user${i}@example.com`,
      password: `pw-${i}-${Math.random().toString(36).slice(2)}`,
      totp: null,
    },
    collectionIds: null,
  }));
  return Buffer.from(JSON.stringify({ encrypted: false, folders: [], items }, null, 2));
}
