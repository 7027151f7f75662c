// Helpers for the account specs: fresh addresses per test, the mailbox of the test SMTP server
// (support/mail-sink.ts), a verified account made through the API, and signing in through the UI.
import crypto from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { ParsedMail } from './mail.ts';
import { signUpByApi } from './opaque.ts';

export const PASSWORD = 'correct horse 42';

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

/** A fresh user per test (the per-run namespace of docs/conventions.md): nothing is shared. */
export function newUser(tag: string): TestUser {
  const id = crypto.randomUUID().slice(0, 8);
  return { name: `E2E ${tag} ${id}`, email: `${tag}-${id}@example.test`, password: PASSWORD };
}

const mailApi = () => `http://127.0.0.1:${process.env.E2E_MAIL_API_PORT}`;

/** Every message the SMTP server received for `to`, oldest first. */
export async function mailbox(to: string): Promise<ParsedMail[]> {
  const res = await fetch(`${mailApi()}/messages?to=${encodeURIComponent(to)}`);
  return (await res.json()) as ParsedMail[];
}

/** Waits for the `nth` (1-based) message to `to` whose subject matches; returns its link. */
export async function mailLink(to: string, subject: RegExp, nth = 1): Promise<string> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailbox(to)).filter((m) => subject.test(m.subject))[nth - 1];
        return found !== undefined;
      },
      { timeout: 10_000, message: `mail ${nth} to ${to} matching ${subject}` },
    )
    .toBe(true);
  const link = found?.links[0];
  if (!link) throw new Error(`no link in mail "${found?.subject}"`);
  return link;
}

export const VERIFY_SUBJECT = /verify your sealvault e-mail/i;
export const RESET_SUBJECT = /reset your sealvault password/i;

/** Signs up through the API (by OPAQUE) and opens the mailed verification link: a ready, signed-out account. */
export async function createVerifiedUser(
  request: APIRequestContext,
  baseURL: string,
  user: TestUser,
): Promise<void> {
  const res = await signUpByApi(request, baseURL, user);
  expect(res.status(), await res.text()).toBe(200);
  const link = await mailLink(user.email, VERIFY_SUBJECT);
  const verified = await request.get(link, { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
  // The link only verifies: it starts no session (tests sign in themselves).
  expect(verified.headers()['set-cookie'] ?? '').not.toContain('session_token=');
}

/** Fills and submits the sign-in form on /auth (the page must be showing it). */
export async function signInWithForm(page: Page, user: TestUser): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Opens the user menu in the top bar. */
export async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** 'Continue with Google', then the local OpenID provider's login form (support/oidc.ts). */
export async function continueWithGoogle(page: Page, who: Pick<TestUser, 'email' | 'name'>) {
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByRole('heading', { name: /test identity provider/ })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(who.email);
  await page.getByRole('textbox', { name: 'Name' }).fill(who.name);
  await page.getByRole('button', { name: 'Continue' }).click();
}
