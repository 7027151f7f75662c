// Unlocking, locking, the 30-minute session, password change and delete.
import { expect, test } from '@playwright/test';
import { serverFilesContaining, serverLogSize } from '../../support/zero-knowledge.ts';
import {
  createVault,
  openAndUnlock,
  signedIn,
  vaultCard,
  VAULT_PASSWORD,
} from '../../support/vaults.ts';

// Each test derives keys with Argon2id (64 MiB) several times: give slow machines room.
test.describe.configure({ timeout: 90_000 });

test('a wrong password is refused, the right one unlocks, and Lock Vault locks', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'unlock');
  await createVault(page, { name: 'Passports', type: 'File vault' });
  await vaultCard(page, 'Passports').getByRole('link', { name: 'Passports' }).click();

  const dialog = page.getByRole('dialog', { name: 'Unlock Vault' });
  await expect(dialog.getByText('Passports')).toBeVisible();
  await expect(dialog.getByText(/never sent to our server/)).toBeVisible();
  await dialog.getByLabel('Vault password').fill('not the password');
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Invalid password');
  await dialog.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(page.getByText('No files in this vault')).toBeVisible();

  await page.getByRole('link', { name: 'Back to Dashboard' }).first().click();
  const card = vaultCard(page, 'Passports');
  await expect(card.getByText('Unlocked')).toBeVisible();
  await expect(card.getByText('Never')).toHaveCount(0);

  await card.getByRole('link', { name: 'Passports' }).click();
  await page.getByRole('button', { name: 'Lock Vault' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(vaultCard(page, 'Passports').getByText('Locked')).toBeVisible();
});

test('Cancel in the unlock dialog returns to the dashboard; an unknown vault says so', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'cancel');
  await createVault(page, { name: 'Receipts', type: 'File vault' });
  await vaultCard(page, 'Receipts').getByRole('link', { name: 'Receipts' }).click();
  await page
    .getByRole('dialog', { name: 'Unlock Vault' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/vault/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Vault not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the session expires 30 minutes after unlock', async ({ page, request, baseURL }) => {
  await page.clock.install();
  await signedIn(page, request, baseURL!, 'expiry');
  await createVault(page, { name: 'Medical', type: 'File vault' });
  await openAndUnlock(page, 'Medical');
  await page.clock.fastForward('29:00');
  await expect(page.getByRole('button', { name: 'Lock Vault' })).toBeVisible();
  await page.clock.fastForward('01:01');
  const dialog = page.getByRole('dialog', { name: 'Unlock Vault' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText('Vault session expired. Please unlock the vault again.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Lock Vault' })).toHaveCount(0);
});

test('after a password change only the new password unlocks', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'chpw');
  await createVault(page, { name: 'Contracts', type: 'File vault' });
  await openAndUnlock(page, 'Contracts');
  await page.getByRole('button', { name: 'Vault menu' }).click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change vault password' });
  await dialog.getByLabel('Current password', { exact: true }).fill('wrong current pw');
  await dialog.getByLabel('New password', { exact: true }).fill('a-brand-new-pass');
  await dialog.getByLabel('Confirm new password', { exact: true }).fill('a-brand-new-pass');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Invalid password');
  await dialog.getByLabel('Current password', { exact: true }).fill(VAULT_PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByText(/only the new password unlocks/)).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Lock Vault' }).click();

  await vaultCard(page, 'Contracts').getByRole('link', { name: 'Contracts' }).click();
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock.getByRole('alert')).toHaveText('Invalid password');
  await unlock.getByLabel('Vault password').fill('a-brand-new-pass');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });

  // Zero knowledge: neither password is anywhere the server keeps things.
  expect(serverLogSize()).toBeGreaterThan(0);
  expect(serverFilesContaining([VAULT_PASSWORD, 'a-brand-new-pass', 'wrong current pw'])).toEqual(
    [],
  );
});

test('an unlocked vault can be deleted from its card', async ({ page, request, baseURL }) => {
  await signedIn(page, request, baseURL!, 'delete');
  await createVault(page, { name: 'Old stuff', type: 'File vault' });
  await openAndUnlock(page, 'Old stuff');
  await page.getByRole('link', { name: 'Back to Dashboard' }).first().click();
  await vaultCard(page, 'Old stuff')
    .getByRole('button', { name: 'Delete vault Old stuff' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Delete vault' });
  await dialog.getByRole('button', { name: 'Delete vault' }).click();
  await expect(dialog).toBeHidden();
  await expect(vaultCard(page, 'Old stuff')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create New Vault' })).toBeVisible();
});
