// A real OpenID provider (oidc-provider) standing in for Google in the end-to-end tests. Its login
// page is a plain form where the test types who signs in (e-mail, name, whether the e-mail is
// verified); consent is granted without a page. Started by playwright.config.ts as one of its
// web servers on E2E_OIDC_PORT, with one client for the app at E2E_PORT.
import crypto from 'node:crypto';
import http from 'node:http';
import Provider, { type AccountClaims } from 'oidc-provider';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } from './constants.ts';

const port = Number(process.env.E2E_OIDC_PORT);
const appPort = Number(process.env.E2E_PORT);
if (!port || !appPort) throw new Error('E2E_OIDC_PORT and E2E_PORT are required');
const issuer = `http://127.0.0.1:${port}`;

const identities = new Map<string, AccountClaims>();
const subjectFor = (email: string) =>
  crypto.createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24);

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Sign in to the test identity provider</h1>
<form method="post" action="/interaction/${escape(uid)}">
<label>Email <input name="email" type="email" required></label>
<label>Name <input name="name" type="text"></label>
<label><input name="email_verified" type="checkbox" value="1" checked> Email verified</label>
<button type="submit">Continue</button>
</form></main></body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: OIDC_CLIENT_ID,
      client_secret: OIDC_CLIENT_SECRET,
      redirect_uris: [
        `http://localhost:${appPort}/api/auth/callback/google`,
        `http://127.0.0.1:${appPort}/api/auth/callback/google`,
      ],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  findAccount: (_ctx: unknown, sub: string) => {
    const claims = identities.get(sub);
    return claims ? { accountId: sub, claims: () => claims } : undefined;
  },
  // Like Google: no RP-initiated logout, so signing out of the app leaves the provider alone.
  features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
  interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` },
  cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
  jwks: {
    keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'e2e', use: 'sig', alg: 'RS256' }],
  },
});

async function interaction(req: http.IncomingMessage, res: http.ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(loginPage(details.uid));
      return;
    }
    const form = await readForm(req);
    const email = form.get('email') ?? '';
    const sub = subjectFor(email);
    identities.set(sub, {
      sub,
      email,
      email_verified: form.get('email_verified') === '1',
      name: form.get('name') ?? '',
    });
    await provider.interactionFinished(req, res, { login: { accountId: sub } });
    return;
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId ?? '',
    clientId: details.params.client_id,
  });
  grant.addOIDCScope(details.params.scope ?? 'openid');
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

const server = http.createServer((req, res) => {
  if (req.url === '/health') return res.writeHead(200).end('ok');
  if (req.url?.startsWith('/interaction/')) {
    interaction(req, res).catch((err: unknown) => res.writeHead(500).end(String(err)));
    return;
  }
  provider.callback()(req, res);
});
server.listen(port, '127.0.0.1');

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
