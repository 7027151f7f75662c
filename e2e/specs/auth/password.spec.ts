// Passwords end to end: a reset by the mailed link (which signs out every session), and a change
// in the settings.
import { expect, test } from '@playwright/test';
import {
  createVerifiedUser,
  mailLink,
  newUser,
  RESET_SUBJECT,
  signInWithForm,
} from '../../support/accounts.ts';

test('resets a forgotten password by the mailed link', async ({ page, request, baseURL }) => {
  const user = newUser('reset');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your email')).toBeVisible();

  const link = await mailLink(user.email, RESET_SUBJECT);
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\?step=reset&token=/);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  const fresh = 'a brand new secret';
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('Confirm new password').fill('something else');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill(fresh);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password is changed')).toBeVisible();

  // The link works once.
  await page.goto(link);
  await expect(page.getByText('This reset link is invalid or has expired.')).toBeVisible();

  await page.goto('/auth');
  await signInWithForm(page, user);
  await expect(page.getByRole('alert')).toContainText(/invalid email or password/i);
  await signInWithForm(page, { ...user, password: fresh });
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('changes the password and the name in the settings', async ({ page, request, baseURL }) => {
  const user = newUser('change');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/dashboard?view=settings');
  await signInWithForm(page, user);

  await page.getByLabel('Full name').fill('Renamed Person');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Your name is saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toContainText('Renamed Person');
  await page.keyboard.press('Escape');

  await page.getByLabel('Current password').fill('wrong password');
  await page.getByLabel('New password', { exact: true }).fill('another secret');
  await page.getByLabel('Confirm new password').fill('another secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password is changed')).toBeVisible();
});
