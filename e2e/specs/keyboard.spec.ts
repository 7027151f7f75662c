// Keyboard only (no pointer): sign in, create a secrets vault with the wizard, unlock it, add and
// copy a secret, lock it. Every control is reached with Tab (or Shift+Tab) and used with Enter,
// Space or the arrow keys, dialogs keep focus inside and give it back when they close.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createVerifiedUser, newUser } from '../support/accounts.ts';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../support/vaults.ts';
import { fileRow } from './files/helpers.ts';

test.describe.configure({ timeout: 90_000 });

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 40 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

test('sign in, create, unlock, add and copy a secret, lock: all from the keyboard', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = newUser('keyboard');
  await createVerifiedUser(request, baseURL!, user);
  await page.goto('/auth');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(user.email);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard/);

  // The wizard: four steps, the radio groups driven with the arrow keys.
  const create = page.getByRole('button', { name: 'Create New Vault' });
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  const wizard = page.getByRole('dialog', { name: 'Create New Vault' });
  await expect(wizard.getByLabel('Vault name')).toBeFocused();
  await page.keyboard.type('Keys');
  await tabTo(page, wizard.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  const secretsType = wizard.getByRole('radio', { name: /Secrets vault/ });
  await tabTo(page, wizard.getByRole('radio').first());
  for (let i = 0; i < 4 && !(await secretsType.isChecked()); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(secretsType).toBeChecked();
  await tabTo(page, wizard.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  const storage = wizard.getByRole('radio', { name: /SealVault storage/ });
  await tabTo(page, storage);
  await page.keyboard.press('Space');
  await expect(storage).toBeChecked();
  await tabTo(page, wizard.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await tabTo(page, wizard.getByLabel('Vault password'));
  await page.keyboard.type(VAULT_PASSWORD);
  await tabTo(page, wizard.getByLabel('Confirm password'));
  await page.keyboard.type(VAULT_PASSWORD);
  await tabTo(page, wizard.getByRole('button', { name: 'Create Vault' }));
  await page.keyboard.press('Enter');
  await expect(wizard).toBeHidden({ timeout: 15_000 });

  // Open and unlock.
  await tabTo(page, page.getByRole('link', { name: 'Keys', exact: true }));
  await page.keyboard.press('Enter');
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await expect(unlock.getByLabel('Vault password')).toBeFocused();
  await page.keyboard.type(VAULT_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  // The link that opened it was on the dashboard: the focus starts at the vault's heading.
  await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeFocused();

  // Add a plain text secret; Escape-free: the dialog's own button submits.
  const addPlain = page.getByRole('button', { name: 'Add Plain Text' });
  await tabTo(page, addPlain);
  await page.keyboard.press('Enter');
  const add = page.getByRole('dialog', { name: 'Add Plain Text Secret' });
  await expect(add).toBeVisible();
  await tabTo(page, add.getByLabel('Title'));
  await page.keyboard.type('Alarm code');
  await tabTo(page, add.getByLabel('Content'));
  await page.keyboard.type('4711');
  await tabTo(page, add.getByRole('button', { name: 'Add Plain Text' }));
  await page.keyboard.press('Enter');
  await expect(add).toBeHidden();
  // Focus goes back to the button that opened the dialog.
  await expect(addPlain).toBeFocused();

  const card = page.getByRole('article', { name: 'Alarm code' });
  await tabTo(page, card.getByRole('button', { name: 'Copy content' }));
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('4711');

  await tabTo(page, page.getByRole('button', { name: 'Lock Vault' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard/);
});

test('files from the keyboard: upload, rename, preview, delete; focus comes back each time', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'keyboard-files');
  await createVault(page, { name: 'Notes', type: 'File vault' });
  await openAndUnlock(page, 'Notes');

  const uploadButton = page.getByRole('button', { name: 'Upload Files' });
  await tabTo(page, uploadButton);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  // Listening before the focus moves: file chooser interception is on by the time Enter opens it.
  const chooserOpened = page.waitForEvent('filechooser');
  await tabTo(page, dialog.getByRole('button', { name: 'Choose files', exact: true }));
  await page.keyboard.press('Enter');
  const chooser = await chooserOpened;
  await chooser.setFiles({
    name: 'plan.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('step one, step two'),
  });
  await tabTo(page, dialog.getByRole('button', { name: 'Upload', exact: true }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(uploadButton).toBeFocused();

  // Rename: Enter opens the field, Enter saves (the extension stays).
  const row = fileRow(page, 'plan.txt');
  await tabTo(page, row.getByRole('button', { name: 'Rename plan.txt' }));
  await page.keyboard.press('Enter');
  const field = page.getByLabel('New name for plan.txt');
  await expect(field).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('roadmap');
  await page.keyboard.press('Enter');
  const renamed = fileRow(page, 'roadmap.txt');
  await expect(renamed).toBeVisible();

  // Preview: Enter on the name opens it, Escape closes it, the focus is back on the name.
  const open = renamed.getByRole('button', { name: 'roadmap.txt', exact: true });
  await tabTo(page, open, { back: true });
  await page.keyboard.press('Enter');
  const preview = page.getByRole('dialog', { name: 'roadmap.txt' });
  await expect(preview.getByText('step one, step two')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  await expect(open).toBeFocused();

  // Delete from the keyboard: to the trash at once.
  await tabTo(page, renamed.getByRole('button', { name: 'Delete roadmap.txt' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('"roadmap.txt" moved to the trash.')).toBeVisible();
  await expect(page.getByText('No files in this vault')).toBeVisible();
  // Its Delete button went with the file: the focus lands on the list's heading, not the page top.
  await expect(page.getByRole('heading', { name: 'Files', exact: true })).toBeFocused();
});
