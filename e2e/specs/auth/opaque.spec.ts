// OPAQUE end to end (docs/auth.md "OPAQUE"): sign-up, sign-in, a password change and a reset
// through the UI succeed, and no request body the browser sends on the way holds the password, in
// the clear, base64, base64url or hex. Also measures the sign-in: the OPAQUE login (Argon2id in
// the browser's WASM) must keep it quick.
import { expect, test, type Page } from '@playwright/test';
import {
  mailLink,
  newUser,
  RESET_SUBJECT,
  signInWithForm,
  signOut,
  VERIFY_SUBJECT,
} from '../../support/accounts.ts';

/** Every body the page sends, from now on. */
function recordBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (req) => {
    const body = req.postData();
    if (body) bodies.push(body);
  });
  return bodies;
}

function expectNoPassword(bodies: readonly string[], password: string) {
  const bytes = Buffer.from(password, 'utf8');
  const forms = [
    password,
    encodeURIComponent(password),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ];
  for (const body of bodies)
    for (const form of forms) expect(body, `a request body holds the password`).not.toContain(form);
}

test('sign-up, sign-in, password change and reset never send the password', async ({ page }) => {
  // Page loads, two mail round trips and five OPAQUE runs (Argon2id each) on a shared machine.
  test.setTimeout(120_000);
  const user = newUser('opaque');
  const bodies = recordBodies(page);
  const seen = () => bodies.length;

  // Sign-up.
  await page.goto('/auth?mode=signup');
  await page.getByLabel('Full name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(/Account created successfully!/)).toBeVisible();
  expect(bodies.some((b) => b.includes('registrationRecord'))).toBe(true);
  await page.goto(await mailLink(user.email, VERIFY_SUBJECT));
  await expect(page.getByText('Your email is verified. Sign in to continue.')).toBeVisible();

  // Sign-in, timed from the click to the dashboard.
  const before = seen();
  const started = Date.now();
  await signInWithForm(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  console.log(`OPAQUE sign-in in the browser: ${Date.now() - started} ms`);
  expect(bodies.slice(before).some((b) => b.includes('finishLoginRequest'))).toBe(true);

  // Password change in the settings.
  const changed = 'a changed opaque secret';
  await page.goto('/dashboard?view=settings');
  await page.getByLabel('Current password').fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill(changed);
  await page.getByLabel('Confirm new password').fill(changed);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password is changed')).toBeVisible();
  await signOut(page);

  // Reset by the mailed link.
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your email')).toBeVisible();
  await page.goto(await mailLink(user.email, RESET_SUBJECT));
  const fresh = 'a reset opaque secret';
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('Confirm new password').fill(fresh);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password is changed')).toBeVisible();

  // The old passwords are refused, the reset one signs in.
  await page.goto('/auth');
  await signInWithForm(page, { ...user, password: changed });
  await expect(page.getByRole('alert')).toContainText(/invalid email or password/i);
  await signInWithForm(page, { ...user, password: fresh });
  await expect(page).toHaveURL(/\/dashboard$/);

  expect(bodies.length).toBeGreaterThan(10);
  for (const password of [user.password, changed, fresh]) expectNoPassword(bodies, password);
});
