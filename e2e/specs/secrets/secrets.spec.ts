// The secrets manager: add, search, edit, show/hide, copy, generator, delete, and what the
// server keeps (nothing readable).
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';
import { serverFilesContaining, serverLogSize } from '../../support/zero-knowledge.ts';

test.describe.configure({ timeout: 90_000 });

async function addSitePassword(
  page: Page,
  f: { title: string; username: string; password: string; url: string; notes?: string },
) {
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Secret' });
  await dialog.getByLabel('Title').fill(f.title);
  await dialog.getByLabel('Username').fill(f.username);
  await dialog.getByLabel('Password', { exact: true }).fill(f.password);
  await dialog.getByLabel('Website').fill(f.url);
  if (f.notes) await dialog.getByLabel('Notes').fill(f.notes);
  await dialog.getByRole('button', { name: 'Add Secret' }).click();
  await expect(dialog).toBeHidden();
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

test('site passwords and plain text: add, search, edit, show/hide, copy, delete; the server learns nothing', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signedIn(page, request, baseURL!, 'secrets');
  await createVault(page, { name: 'Logins', type: 'Secrets vault' });
  await openAndUnlock(page, 'Logins');
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible();
  await expect(page.getByText('0 encrypted secrets')).toBeVisible();

  // Validation messages of the spec.
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  await page
    .getByRole('dialog', { name: 'Add Secret' })
    .getByRole('button', { name: 'Add Secret' })
    .click();
  await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('Title is required');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Add Plain Text' }).click();
  const plainDialog = page.getByRole('dialog', { name: 'Add Plain Text Secret' });
  await plainDialog.getByLabel('Title').fill('Wifi at the cabin');
  await plainDialog.getByRole('button', { name: 'Add Plain Text' }).click();
  await expect(plainDialog.getByRole('alert')).toHaveText(
    'Content is required for plain text secrets',
  );
  await plainDialog.getByLabel('Content').fill('network: Cabin-5G\npassphrase: marmot-lantern-bay');
  await plainDialog.getByRole('button', { name: 'Add Plain Text' }).click();
  await expect(plainDialog).toBeHidden();

  await addSitePassword(page, {
    title: 'Quokka Bank',
    username: 'wombat.owner@example.test',
    password: 'Zx9!quokka-river',
    url: 'https://bank.example.test',
    notes: 'pin hint: pelican',
  });
  await addSitePassword(page, {
    title: 'Code host',
    username: 'numbat-dev',
    password: 'Hq3$numbat-cloud',
    url: 'https://code.example.test',
  });
  await expect(page.getByText('3 encrypted secrets')).toBeVisible();

  // A plain-text secret, like a site password, hides its content until asked (issue 20 item 8).
  const wifi = card(page, 'Wifi at the cabin');
  await expect(wifi.getByText('passphrase: marmot-lantern-bay')).toHaveCount(0);
  await wifi.getByRole('button', { name: 'Show content' }).click();
  await expect(wifi.getByText('passphrase: marmot-lantern-bay')).toBeVisible();
  const bank = card(page, 'Quokka Bank');
  await expect(bank.getByTestId('secret-password')).not.toHaveText('Zx9!quokka-river');
  await bank.getByRole('button', { name: 'Show password' }).click();
  await expect(bank.getByTestId('secret-password')).toHaveText('Zx9!quokka-river');
  await bank.getByRole('button', { name: 'Hide password' }).click();
  await expect(bank.getByTestId('secret-password')).not.toHaveText('Zx9!quokka-river');

  // Copy shows a confirmation and puts the value on the clipboard.
  await bank.getByRole('button', { name: 'Copy password' }).click();
  await expect(
    page.getByText('Password copied. The clipboard clears in 30 seconds.'),
  ).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Zx9!quokka-river');

  // Search: title, username or url, case-insensitively.
  const search = page.getByRole('searchbox', { name: 'Search secrets' });
  await search.fill('WOMBAT');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card(page, 'Quokka Bank')).toBeVisible();
  await search.fill('code.example');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card(page, 'Code host')).toBeVisible();
  await search.fill('pelican');
  await expect(page.getByText('No secrets match your search.')).toBeVisible();
  await search.fill('');

  // Edit.
  await card(page, 'Code host').getByRole('button', { name: 'Edit Code host' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Secret' });
  await edit.getByLabel('Username').fill('numbat-admin');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(card(page, 'Code host').getByText('numbat-admin')).toBeVisible();

  // Delete asks first.
  await card(page, 'Code host').getByRole('button', { name: 'Delete Code host' }).click();
  const del = page.getByRole('dialog', { name: 'Delete secret' });
  await expect(del.getByText('Are you sure you want to delete this secret?')).toBeVisible();
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(card(page, 'Code host')).toHaveCount(0);
  await expect(page.getByText('2 encrypted secrets')).toBeVisible();

  // Zero knowledge: none of it is readable where the server keeps things.
  expect(serverLogSize()).toBeGreaterThan(0);
  expect(
    serverFilesContaining([
      VAULT_PASSWORD,
      'Quokka Bank',
      'wombat.owner@example.test',
      'Zx9!quokka-river',
      'pin hint: pelican',
      'marmot-lantern-bay',
      'Wifi at the cabin',
      'numbat-admin',
      'Hq3$numbat-cloud',
    ]),
  ).toEqual([]);
});

test('the generator makes 16 characters of letters, digits and !@#$%^&*', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'generator');
  await createVault(page, { name: 'Keys', type: 'Secrets vault' });
  await openAndUnlock(page, 'Keys');
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Secret' });
  const field = dialog.getByLabel('Password', { exact: true });
  const seen = new Set<string>();
  for (let i = 0; i < 5; i++) {
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const value = await field.inputValue();
    expect(value).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
    seen.add(value);
  }
  expect(seen.size).toBe(5);
});

test('a change saved in another tab is shown, and nothing is lost', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'conflict');
  await createVault(page, { name: 'Shared', type: 'Secrets vault' });
  await openAndUnlock(page, 'Shared');
  await addSitePassword(page, {
    title: 'Router',
    username: 'admin',
    password: 'first-pass-1',
    url: 'http://router.test',
  });

  const other = await context.newPage();
  await other.goto(page.url());
  const unlock = other.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(card(other, 'Router')).toBeVisible({ timeout: 15_000 });

  // Tab A opens the editor first; tab B saves a change meanwhile.
  await card(page, 'Router').getByRole('button', { name: 'Edit Router' }).click();
  await card(other, 'Router').getByRole('button', { name: 'Edit Router' }).click();
  const b = other.getByRole('dialog', { name: 'Edit Secret' });
  await b.getByLabel('Username').fill('admin-from-tab-b');
  await b.getByLabel('Password', { exact: true }).fill('second-pass-2');
  await b.getByRole('button', { name: 'Save changes' }).click();
  await expect(b).toBeHidden();

  // Tab A saves its stale edit: refused, told why, the newer version shown, its edit kept.
  const a = page.getByRole('dialog', { name: 'Edit Secret' });
  await a.getByLabel('Username').fill('admin-from-tab-a');
  await a.getByRole('button', { name: 'Save changes' }).click();
  await expect(a.getByText(/changed in another tab or on another device/)).toBeVisible();
  await expect(a.getByLabel('Username')).toHaveValue('admin-from-tab-a');
  await expect(a.getByText('Newer version', { exact: true })).toBeVisible();
  await expect(a.getByText('admin-from-tab-b')).toBeVisible();
  // The newer password is masked until asked for.
  await expect(a.getByText('second-pass-2')).toHaveCount(0);
  await a.getByRole('button', { name: 'Show newer password' }).click();
  await expect(a.getByText('second-pass-2')).toBeVisible();

  // Saving again is a deliberate overwrite on top of the newer version.
  await a.getByRole('button', { name: 'Save changes' }).click();
  await expect(a).toBeHidden();
  await expect(card(page, 'Router').getByText('admin-from-tab-a')).toBeVisible();

  // The other way round: tab B, now stale, takes the newer version instead of its own edit.
  await card(other, 'Router').getByRole('button', { name: 'Edit Router' }).click();
  const b2 = other.getByRole('dialog', { name: 'Edit Secret' });
  await expect(b2.getByLabel('Username')).toHaveValue('admin-from-tab-b');
  await b2.getByLabel('Website').fill('http://router-b.test');
  await b2.getByRole('button', { name: 'Save changes' }).click();
  await b2.getByRole('button', { name: 'Use the newer version' }).click();
  await expect(b2.getByLabel('Username')).toHaveValue('admin-from-tab-a');
  await expect(b2.getByLabel('Website')).toHaveValue('http://router.test');
  await b2.getByRole('button', { name: 'Cancel' }).click();
});
