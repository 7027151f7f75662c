// "Change password and rotate keys" (issue 18, ADR 0007): a new vault key for everything the
// vault holds, in one server transaction. A rotated file vault still opens its file (its key was
// re-wrapped, its bytes untouched) under the new password only, and nothing in the database is
// what it was; a rotation cut off before the server commits leaves the old password working.
import { expect, test, type Page } from '@playwright/test';
import { STALE_KEY_MESSAGE } from '@sealvault/protocol';
import {
  changePassword,
  createVault,
  openAndUnlock,
  signedIn,
  vaultCard,
  VAULT_PASSWORD,
} from '../../support/vaults.ts';
import { rowsWhere, storedKey } from '../../support/tamper.ts';
import { fileRow, openPreview, uploadByPicker } from '../files/helpers.ts';

test.describe.configure({ timeout: 120_000 });

const NEW_PASSWORD = 'a-rotated-passphrase-42';
const TEXT = 'The lighthouse keeper logs every ship by lantern light.';

async function unlockWith(page: Page, name: string, password: string) {
  await vaultCard(page, name).getByRole('link', { name }).click();
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(password);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  return unlock;
}

test('a rotated vault opens its files under the new password only, and every record changed', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'rotate');
  await createVault(page, { name: 'Harbour', type: 'File vault' });
  await openAndUnlock(page, 'Harbour');
  await uploadByPicker(page, [
    { name: 'ledger.txt', mimeType: 'text/plain', buffer: Buffer.from(TEXT) },
  ]);
  const vaultId = new URL(page.url()).pathname.split('/').pop()!;
  const before = rowsWhere('vault_files', 'vault_id', vaultId)[0]!;
  const keyBefore = storedKey(vaultId);

  const dialog = await changePassword(page, VAULT_PASSWORD, NEW_PASSWORD);
  await expect(dialog.getByText(/the keys were rotated/)).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Still open in this tab, under the new keys.
  const preview = await openPreview(page, 'ledger.txt');
  await expect(preview.getByText(TEXT)).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('Escape');

  // The server holds new wrapping, metadata, look-up and key slot; the bytes are the same blob.
  const after = rowsWhere('vault_files', 'vault_id', vaultId)[0]!;
  expect(after.wrapped_key).not.toBe(before.wrapped_key);
  expect(after.enc_meta).not.toBe(before.enc_meta);
  expect(after.name_lookup).not.toBe(before.name_lookup);
  expect(after.checksum).toBe(before.checksum);
  expect(storedKey(vaultId).slots[0]!.wrapped).not.toBe(keyBefore.slots[0]!.wrapped);

  await page.getByRole('button', { name: 'Lock Vault' }).click();
  let unlock = await unlockWith(page, 'Harbour', VAULT_PASSWORD);
  await expect(unlock.getByRole('alert')).toHaveText('Invalid password');
  await unlock.getByLabel('Vault password').fill(NEW_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await expect(fileRow(page, 'ledger.txt')).toBeVisible();
  await expect(page.getByText('This vault does not match its manifest')).toHaveCount(0);
  unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await expect(unlock).toHaveCount(0);
});

test('a rotation cut off before the server commits leaves the old password and records as they were', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'rotate-cut');
  await createVault(page, { name: 'Lanterns', type: 'Secrets vault' });
  await openAndUnlock(page, 'Lanterns');
  await page.getByRole('button', { name: 'Add Plain Text' }).click();
  const add = page.getByRole('dialog', { name: 'Add Plain Text Secret' });
  await add.getByLabel('Title').fill('Keeper note');
  await add.getByLabel('Content').fill('Lamp oil is in the north shed.');
  await add.getByRole('button', { name: 'Add Plain Text' }).click();
  await expect(add).toBeHidden();
  const vaultId = new URL(page.url()).pathname.split('/').pop()!;
  const before = rowsWhere('secret_items', 'vault_id', vaultId)[0]!;

  // The connection drops as the rotation is sent: the server never sees it.
  await page.route('**/api/vaults/*/rotate', (route) => route.abort('connectionreset'));
  const dialog = await changePassword(page, VAULT_PASSWORD, NEW_PASSWORD);
  await expect(dialog.getByRole('alert')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText(/the keys were rotated/)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(rowsWhere('secret_items', 'vault_id', vaultId)[0]!.data).toBe(before.data);

  // The vault still works in this tab, and the old password still opens it.
  await expect(page.getByRole('article', { name: 'Keeper note' })).toBeVisible();
  await page.getByRole('button', { name: 'Lock Vault' }).click();
  const unlock = await unlockWith(page, 'Lanterns', VAULT_PASSWORD);
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await expect(page.getByRole('article', { name: 'Keeper note' })).toBeVisible();
  await expect(page.getByText('This vault does not match its manifest')).toHaveCount(0);
});

// Issue 25, finding 1: a second device still holding the keys from before a rotation. Its save is
// refused (nothing is stored under a retired key), the vault locks in place with the reason, and
// after an unlock with the new password the half-typed edit is still there and saves.
test('a device still holding the retired keys loses nothing it typed: it unlocks again and saves', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'rotate-stale');
  await createVault(page, { name: 'Tide tables', type: 'Secrets vault' });
  await openAndUnlock(page, 'Tide tables');
  await page.getByRole('button', { name: 'Add Plain Text' }).click();
  const add = page.getByRole('dialog', { name: 'Add Plain Text Secret' });
  await add.getByLabel('Title').fill('High water');
  await add.getByLabel('Content').fill('06:12 at the north pier.');
  await add.getByRole('button', { name: 'Add Plain Text' }).click();
  await expect(add).toBeHidden();
  const vaultUrl = page.url();
  const vaultId = new URL(vaultUrl).pathname.split('/').pop()!;

  // The second device: the same account in another browser context, the vault unlocked there.
  const other = await browser.newContext({ storageState: await page.context().storageState() });
  const second = await other.newPage();
  await second.goto(vaultUrl);
  const firstUnlock = second.getByRole('dialog', { name: 'Unlock Vault' });
  await firstUnlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await firstUnlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(firstUnlock).toBeHidden({ timeout: 15_000 });
  await second
    .getByRole('article', { name: 'High water' })
    .getByRole('button', { name: 'Edit High water' })
    .click();
  const edit = second.getByRole('dialog', { name: 'Edit Plain Text Secret' });
  const EDITED = '06:40 at the north pier, after the spring tide.';
  await edit.getByLabel('Content').fill(EDITED);

  // Meanwhile the first device rotates the keys.
  const dialog = await changePassword(page, VAULT_PASSWORD, NEW_PASSWORD);
  await expect(dialog.getByText(/the keys were rotated/)).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();
  const rotated = rowsWhere('secret_items', 'vault_id', vaultId)[0]!;

  // The second device saves under the retired keys: refused, nothing stored, the vault locks.
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const unlock = second.getByRole('dialog', { name: 'Unlock Vault' });
  await expect(unlock).toBeVisible({ timeout: 15_000 });
  await expect(unlock).toContainText(
    "This vault's keys were changed on another device. Unlock it with its current password. What you were doing is kept here.",
  );
  expect(rowsWhere('secret_items', 'vault_id', vaultId)).toEqual([rotated]);

  // Unlocked with the new password, the edit is still there, saying why it was not saved.
  await unlock.getByLabel('Vault password').fill(NEW_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel('Content')).toHaveValue(EDITED);
  await expect(edit.getByText(STALE_KEY_MESSAGE)).toBeVisible();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden({ timeout: 15_000 });
  const saved = rowsWhere('secret_items', 'vault_id', vaultId)[0]!;
  expect(saved.revision).toBe(2);

  // The first device reads the edit under the new keys, with no manifest complaint.
  await page.reload();
  const again = page.getByRole('dialog', { name: 'Unlock Vault' });
  await again.getByLabel('Vault password').fill(NEW_PASSWORD);
  await again.getByRole('button', { name: 'Unlock' }).click();
  await expect(again).toBeHidden({ timeout: 15_000 });
  const card = page.getByRole('article', { name: 'High water' });
  await card.getByRole('button', { name: 'Show content' }).click();
  await expect(card.getByText(EDITED)).toBeVisible();
  await expect(page.getByText('This vault does not match its manifest')).toHaveCount(0);
  await other.close();
});
