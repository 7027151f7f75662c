// A real OpenID provider (oidc-provider) on 127.0.0.1 for the Google sign-in tests, with a login
// and consent step that finishes without a form: the test says who logs in next, and browse()
// follows the redirects like a browser (cookies included) until they leave the provider.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type AccountClaims } from 'oidc-provider';

export interface Identity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface TestOidcProvider {
  issuer: string;
  /** The identity the next login signs in as, in a fresh browser (no provider session). */
  loginAs(identity: Identity): void;
  /** Follows redirects from `url` with the provider's cookies; returns the first URL outside it. */
  browse(url: string): Promise<URL>;
  /** While set, the token endpoint answers with this id_token instead of the real one. */
  replaceIdToken(idToken: string | null): void;
  /** A genuine id_token issued to `client` (for a different audience), via a full code flow. */
  idTokenFor(client: OidcClient, nonce: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh RS256 signing key (oidc-provider's built-in keys are for quick starts only). */
function signingKey(): Record<string, unknown> {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
}

export async function startOidcProvider(clients: OidcClient[]): Promise<TestOidcProvider> {
  const holder: { provider?: Provider } = {};
  let next: Identity | undefined;
  let replacement: string | null = null;
  const identities = new Map<string, Identity>();

  const server = http.createServer((req, res) => {
    const p = holder.provider;
    if (!p) return res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) {
      void finishInteraction(p, req, res).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
      return;
    }
    p.callback()(req, res);
  });
  async function finishInteraction(
    p: Provider,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ) {
    const details = await p.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!next) throw new Error('loginAs() was not called');
      identities.set(next.sub, next);
      await p.interactionFinished(req, res, { login: { accountId: next.sub } });
      return;
    }
    const grant = new p.Grant({
      accountId: details.session?.accountId ?? '',
      clientId: details.params.client_id,
    });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await p.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      ...c,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx: unknown, sub: string) => {
      const who = identities.get(sub);
      if (!who) return undefined;
      return { accountId: sub, claims: (): AccountClaims => ({ ...who }) };
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` },
    pkce: { required: () => false },
    cookies: { keys: ['sealvault-test-oidc-cookie-key'] },
    jwks: { keys: [signingKey()] },
  });
  holder.provider = provider;
  provider.use(async (ctx, nextMw) => {
    await nextMw();
    if (replacement && ctx.path === '/token' && ctx.body && typeof ctx.body === 'object')
      ctx.body = { ...(ctx.body as Record<string, unknown>), id_token: replacement };
  });

  const jar = new Map<string, string>();
  const browse = async (start: string): Promise<URL> => {
    let url = new URL(start);
    for (let hop = 0; hop < 20; hop++) {
      if (url.origin !== issuer) return url;
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { redirect: 'manual', headers: { cookie } });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`provider stopped at ${url.pathname}: ${res.status}`);
      url = new URL(location, url);
    }
    throw new Error('too many redirects at the provider');
  };

  return {
    issuer,
    loginAs: (identity) => {
      next = identity;
      jar.clear(); // a fresh browser: no provider session left from an earlier login
    },
    browse,
    replaceIdToken: (idToken) => {
      replacement = idToken;
    },
    async idTokenFor(client, nonce) {
      const redirectUri = client.redirect_uris[0] ?? '';
      const authorize = new URL(`${issuer}/auth`);
      authorize.search = new URLSearchParams({
        client_id: client.client_id,
        response_type: 'code',
        scope: 'openid email profile',
        redirect_uri: redirectUri,
        state: 'other-client',
        nonce,
      }).toString();
      const back = await browse(authorize.toString());
      const code = back.searchParams.get('code') ?? '';
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: client.client_id,
          client_secret: client.client_secret,
        }),
      });
      const body = (await res.json()) as { id_token?: string };
      if (!body.id_token) throw new Error(`no id_token: ${JSON.stringify(body)}`);
      return body.id_token;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
