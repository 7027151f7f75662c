// Test users: createUser() signs a user up and in through Better Auth's real endpoints and returns
// a Cookie header value for the session. The e-mail is marked verified directly in the database
// (no mail round trip) unless `verified: false`; the role, if asked for, is set on the profile.
import crypto from 'node:crypto';
import type { TestApp } from './harness.ts';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** The value of a Cookie header carrying the session ('' for an unverified user). */
  cookie: string;
}

/** The Cookie header value that a browser would send back after these Set-Cookie headers. */
export function cookieFrom(res: Response, previous = ''): string {
  return cookieAfter(previous, res.headers.getSetCookie());
}

/** The Cookie header `cookie` becomes after these Set-Cookie lines, as a browser's jar makes it. */
export function cookieAfter(cookie: string, setCookie: readonly string[]): string {
  const jar = new Map<string, string>();
  for (const pair of cookie.split('; ').filter(Boolean)) {
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  for (const line of setCookie) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

export async function postJson(
  t: TestApp,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return t.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export async function markVerified(t: TestApp, userId: string): Promise<void> {
  await t.db.kysely
    .updateTable('user')
    .set({ emailVerified: t.db.kind === 'sqlite' ? 1 : true })
    .where('id', '=', userId)
    .execute();
}

export async function signIn(t: TestApp, email: string, password: string): Promise<Response> {
  return postJson(t, '/api/auth/sign-in/email', { email, password });
}

export async function createUser(
  t: TestApp,
  opts: {
    email?: string;
    password?: string;
    name?: string;
    role?: 'user' | 'admin';
    verified?: boolean;
    /** An invitation's token, sent in its header (SIGNUP_MODE=invite, issue 33). */
    invite?: string;
  } = {},
): Promise<TestUser> {
  const email = opts.email ?? `user-${crypto.randomUUID()}@example.test`;
  const password = opts.password ?? 'correct horse 42';
  const signUp = await postJson(
    t,
    '/api/auth/sign-up/email',
    { email, password, name: opts.name ?? 'Test User' },
    opts.invite ? { 'x-sealvault-invite': opts.invite } : {},
  );
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const { user } = (await signUp.json()) as { user: { id: string } };
  if (opts.role)
    await t.db.kysely
      .updateTable('profiles')
      .set({ role: opts.role })
      .where('id', '=', user.id)
      .execute();
  if (opts.verified === false) return { id: user.id, email, password, cookie: '' };
  await markVerified(t, user.id);
  // The sign-up's verification mail is not needed: drop it so tests read only their own mails.
  for (let i = t.mails.length - 1; i >= 0; i--) if (t.mails[i]?.to === email) t.mails.splice(i, 1);
  const res = await signIn(t, email, password);
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return { id: user.id, email, password, cookie: cookieFrom(res) };
}
