// Helpers for the vault specs: a signed-in user on the dashboard, the create-vault wizard and the
// unlock dialog driven through the UI, as a user would.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedUser, newUser, type TestUser } from './accounts.ts';
import { signInByApi } from './opaque.ts';

export const VAULT_PASSWORD = 'tangerine-orbit-77';

/**
 * A fresh verified user, signed in, on the dashboard. The sign-in form is the auth specs' subject
 * (signInWithForm); here the API's answer sets the session cookies in the page's own context
 * (page.request shares them), which saves a page load and a form in every other test.
 */
export async function signedIn(
  page: Page,
  request: APIRequestContext,
  baseURL: string,
  tag: string,
): Promise<TestUser> {
  const user = newUser(tag);
  await createVerifiedUser(request, baseURL, user);
  const res = await signInByApi(page.request, baseURL, user.email, user.password);
  expect(res.status(), await res.text()).toBe(200);
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard/);
  return user;
}

export interface NewVault {
  name: string;
  description?: string;
  type: 'File vault' | 'Secrets vault';
  password?: string;
  /** The storage provider's name in the wizard (default: our server storage). */
  provider?: 'SealVault storage' | 'This browser' | 'Dropbox' | 'Google Drive' | 'OneDrive';
}

/** Runs the 4-step wizard from the dashboard's 'Create New Vault' tile. */
export async function createVault(page: Page, v: NewVault): Promise<void> {
  await page.getByRole('button', { name: 'Create New Vault' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Vault' });
  await dialog.getByLabel('Vault name').fill(v.name);
  if (v.description) await dialog.getByLabel(/Description/).fill(v.description);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('radio', { name: new RegExp(v.type) }).check();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('radio', { name: new RegExp(v.provider ?? 'SealVault storage') }).check();
  await dialog.getByRole('button', { name: 'Next' }).click();
  const password = v.password ?? VAULT_PASSWORD;
  await dialog.getByLabel('Vault password').fill(password);
  await dialog.getByLabel('Confirm password').fill(password);
  await dialog.getByRole('button', { name: 'Create Vault' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(vaultCard(page, v.name)).toBeVisible();
}

export const vaultCard = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Vaults' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name, exact: true }) });

/** Opens a vault from its card and unlocks it with the password. */
export async function openAndUnlock(
  page: Page,
  name: string,
  password = VAULT_PASSWORD,
): Promise<void> {
  await vaultCard(page, name).getByRole('link', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Unlock Vault' });
  await dialog.getByLabel('Vault password').fill(password);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Lock Vault' })).toBeVisible();
}

/**
 * Starts "Change password and rotate keys" from the vault menu (rotation is the default: the box
 * is ticked and the button says so); answers the dialog, still open while the keys rotate.
 */
export async function changePassword(page: Page, current: string, next: string) {
  await page.getByRole('button', { name: 'Vault menu' }).click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change vault password' });
  await dialog.getByLabel('Current password', { exact: true }).fill(current);
  await dialog.getByLabel('New password', { exact: true }).fill(next);
  await dialog.getByLabel('Confirm new password', { exact: true }).fill(next);
  await expect(dialog.getByLabel("Rotate the vault's keys too")).toBeChecked();
  await dialog.getByRole('button', { name: 'Change password and rotate keys' }).click();
  return dialog;
}
