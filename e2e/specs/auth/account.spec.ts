// Sessions and account deletion in the settings: another device's session listed and signed
// out, 'Sign out everywhere', and deleting the account with the password.
import { expect, test } from '@playwright/test';
import { createVerifiedUser, newUser, signInWithForm } from '../../support/accounts.ts';

test('lists sessions, signs one out, and signs out everywhere', async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  const user = newUser('sessions');
  await createVerifiedUser(request, baseURL ?? '', user);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto('/auth');
  await signInWithForm(otherPage, user);
  await expect(otherPage).toHaveURL(/\/dashboard$/);

  await page.goto('/dashboard?view=settings');
  await signInWithForm(page, user);
  const sessions = page.getByRole('region', { name: 'Sessions' });
  await expect(sessions.getByText('This device')).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await sessions.getByRole('button', { name: /^Sign out Chrome/ }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await otherPage.goto('/dashboard');
  await expect(otherPage).toHaveURL(/\/auth$/);

  await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
  await other.close();
});

test('deletes the account after the password is confirmed', async ({ page, request, baseURL }) => {
  const user = newUser('delete');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/dashboard?view=settings');
  await signInWithForm(page, user);
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Password', { exact: true }).fill('not it');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
  await signInWithForm(page, user);
  await expect(page.getByRole('alert')).toContainText(/invalid email or password/i);
});
