// Sign-up end to end: the form's validation, the verification mail from the real SMTP server,
// the sign-in refused (with the resend) before verifying, the link (which verifies but signs nobody
// in), then sign-in and sign-out.
import { expect, test } from '@playwright/test';
import {
  mailLink,
  newUser,
  openUserMenu,
  signInWithForm,
  signOut,
  VERIFY_SUBJECT,
} from '../../support/accounts.ts';

test('the sign-up form shows the spec validation messages', async ({ page }) => {
  await page.goto('/auth?mode=signup&email=ada%40example.test');
  await expect(page.getByRole('heading', { name: 'Create account' })).toBeVisible();
  await expect(page.getByText('Start securing your files today')).toBeVisible();
  // The landing page's closing call to action hands over the e-mail.
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.test');

  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Full name is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();

  await page.getByLabel('Full name').fill('Ada');
  await page.getByLabel('Password', { exact: true }).fill('12345');
  await page.getByLabel('Confirm password').fill('12345');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );

  await page.getByLabel('Password', { exact: true }).fill('123456');
  await page.getByLabel('Confirm password').fill('1234567');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  // The show/hide toggle reveals the password and says so.
  const toggle = page.getByRole('button', { name: 'Show password' }).first();
  await toggle.click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Hide password' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('sign up, verify by mail, sign in to the dashboard and sign out', async ({ page }) => {
  // Four page loads, a mail round trip and two password hashes: about 23 s on an idle machine,
  // more than the default 30 s budget when the suite's other worker is busy.
  test.setTimeout(60_000);
  const user = newUser('signup');
  await page.goto('/auth');
  await page.getByRole('link', { name: "Don't have an account? Sign up" }).click();
  await expect(page.getByRole('heading', { name: 'Create account' })).toBeVisible();
  await page.getByLabel('Full name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(
    page.getByText('Account created successfully! Please check your email to verify your account.'),
  ).toBeVisible();
  await mailLink(user.email, VERIFY_SUBJECT, 1);

  // Signing in before verifying explains what to do and offers the resend.
  await page.goto('/auth');
  await signInWithForm(page, user);
  await expect(page.getByText('Please verify your email first')).toBeVisible();
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(page.getByText('A new verification email is on its way.')).toBeVisible();
  const link = await mailLink(user.email, VERIFY_SUBJECT, 2);
  expect(new URL(link).pathname).toBe('/api/auth/verify-email');

  // The link verifies the address but signs nobody in (login CSRF): it lands on the sign-in form
  // with the notice, and the dashboard still sends the visitor back to /auth.
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\?verified=1$/);
  await expect(page.getByText('Your email is verified. Sign in to continue.')).toBeVisible();
  const session = await page.request.get('/api/auth/get-session');
  expect(await session.json()).toBeNull();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);

  // An ordinary sign-in now works.
  await signInWithForm(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('End-to-End Encrypted')).toBeVisible();
  await expect(page.getByRole('link', { name: /Plan: Free/ })).toBeVisible();
  await openUserMenu(page);
  await expect(page.getByRole('menu')).toContainText(user.name);
  await expect(page.getByRole('menu')).toContainText(user.email);
  await page.keyboard.press('Escape');
  await signOut(page);

  // Signed out on the server: the dashboard sends the visitor to /auth again.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
});

test('a wrong password is refused with the server message', async ({ page }) => {
  await page.goto('/auth');
  await signInWithForm(page, newUser('nobody'));
  await expect(page.getByRole('alert')).toContainText(/invalid email or password/i);
});
