// Google sign-in by OpenID Connect against a real local provider (support/oidc.ts): the whole
// redirect flow in the browser, a returning user, a verified Google e-mail joining the verified
// local account, and a tampered state refused with the spec's message.
import { expect, test } from '@playwright/test';
import {
  continueWithGoogle,
  createVerifiedUser,
  newUser,
  openUserMenu,
  signOut,
} from '../../support/accounts.ts';
import { signUpByApi } from '../../support/opaque.ts';

test('signs up and in with Google through the provider redirect', async ({ page }) => {
  const who = newUser('google');
  await page.goto('/auth?mode=signup');
  await continueWithGoogle(page, who);
  await expect(page).toHaveURL(/\/dashboard$/);
  await openUserMenu(page);
  await expect(page.getByRole('menu')).toContainText(who.name);
  await expect(page.getByRole('menu')).toContainText(who.email);
  await page.keyboard.press('Escape');
  await signOut(page);

  // A returning Google user, remembered location included. The provider still has its own
  // session, so it sends the browser straight back.
  await page.goto('/dashboard?view=settings');
  await expect(page).toHaveURL(/\/auth\?next=/);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/dashboard\?view=settings$/);
  await expect(page.getByText('this account has no password')).toBeVisible();
});

test('a verified Google e-mail joins the verified local account', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('link');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/auth');
  await continueWithGoogle(page, { email: user.email, name: 'Someone Else' });
  await expect(page).toHaveURL(/\/dashboard$/);
  // The local account's name, not the provider's: it is the same account.
  await openUserMenu(page);
  await expect(page.getByRole('menu')).toContainText(user.name);
});

test('a forged callback state is refused with "Google login failed"', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByRole('heading', { name: /test identity provider/ })).toBeVisible();
  // The browser holds a sign-in in progress; a callback with someone else's state must not
  // complete it.
  await page.goto('/api/auth/callback/google?code=forged-code&state=forged-state');
  await expect(page).toHaveURL(/\/auth\?error=/);
  await expect(page.getByRole('alert')).toHaveText('Google login failed');
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
});

test('an unverified local account is never joined by Google', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('unverified');
  const res = await signUpByApi(request, baseURL ?? '', user);
  expect(res.status()).toBe(200);
  await page.goto('/auth?mode=signup');
  await continueWithGoogle(page, user);
  await expect(page).toHaveURL(/\/auth\?.*error=/);
  const alert = page.getByRole('alert');
  await expect(alert.getByText('Google signup failed', { exact: true })).toBeVisible();
  await expect(alert).toContainText('not verified yet');
});
