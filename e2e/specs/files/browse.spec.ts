// Files people live in (issue 28), on our server: search by name as you type, sort remembered per
// vault, a name already in use (keep both, skip), selection with shift-click and the keyboard,
// several files downloaded as one ZIP whose unzipped bytes are the uploaded ones, and a bulk
// delete. The server learns none of the names.
import fs from 'node:fs';
import { unzipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';
import { serverFilesContaining } from '../../support/zero-knowledge.ts';
import { fileRow, uploadByPicker, type Fixture } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

const text = (name: string, body: string): Fixture => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(body),
});
const ALPHA = text('alpha quokkafig notes.txt', 'alpha'.repeat(2));
const RESUME = text('Résumé quokkafig 2026.txt', 'résumé '.repeat(400));
const ZETA = text('zeta quokkafig table.csv', 'a,b\n'.repeat(100));
const BETA = text('beta quokkafig.txt', 'beta'.repeat(30));

/** The file names as the list shows them, top to bottom. */
const shownNames = (page: Page) =>
  page
    .getByRole('list', { name: 'Files' })
    .getByRole('listitem')
    .getByRole('button', { name: /quokkafig/, exact: false })
    .filter({ hasNot: page.locator('svg') })
    .allInnerTexts();
const check = (page: Page, name: string) => page.getByRole('checkbox', { name: `Select ${name}` });

test('search, sort, a name in use, selection, a ZIP of several files and a bulk delete', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'browse');
  await createVault(page, { name: 'Papers', type: 'File vault' });
  await openAndUnlock(page, 'Papers');
  await uploadByPicker(page, [ALPHA, RESUME, ZETA]);

  // Search as you type, over the decrypted names: case and accents do not matter.
  const search = page.getByRole('searchbox', { name: 'Search files' });
  await search.fill('RESUME');
  expect(await shownNames(page)).toEqual([RESUME.name]);
  await expect(page.getByText('3 files · 1 shown')).toBeVisible();
  await search.fill('no such thing');
  await expect(
    page.getByRole('status').filter({ hasText: 'No files match your search.' }),
  ).toBeVisible();
  await search.fill('');

  // Sort by size, largest first; the order is remembered for this vault after a reload.
  await page.getByLabel('Sort by').selectOption('size');
  expect(await shownNames(page)).toEqual([ALPHA.name, ZETA.name, RESUME.name]);
  await page.getByRole('button', { name: 'Ascending order' }).click();
  expect(await shownNames(page)).toEqual([RESUME.name, ZETA.name, ALPHA.name]);
  await page.reload();
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByLabel('Sort by')).toHaveValue('size');
  await expect(page.getByRole('button', { name: 'Descending order' })).toBeVisible();
  expect(await shownNames(page)).toEqual([RESUME.name, ZETA.name, ALPHA.name]);
  await page.getByLabel('Sort by').selectOption('name');
  await page.getByRole('button', { name: 'Descending order' }).click();

  // A name in use asks: keep both numbers the new one, skip leaves it out.
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  const again = text(ALPHA.name, 'a second alpha');
  await dialog.getByLabel('Choose files to upload').setInputFiles([again, ZETA, BETA]);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const question = dialog.getByRole('group', {
    name: `"${ALPHA.name}" already exists in this vault.`,
  });
  await expect(question).toContainText(
    'Keep both saves the new file as "alpha quokkafig notes (2).txt".',
  );
  await question.getByRole('button', { name: 'Keep both' }).click();
  await dialog
    .getByRole('group', { name: `"${ZETA.name}" already exists in this vault.` })
    .getByRole('button', { name: 'Skip' })
    .click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('1 file skipped: the name is in use.')).toBeVisible();
  await expect(page.getByText('5 files', { exact: true })).toBeVisible();
  const ALPHA2 = 'alpha quokkafig notes (2).txt';
  await expect(fileRow(page, ALPHA2)).toBeVisible();

  // Select one, shift-click another: the range between them, in the order shown.
  expect(await shownNames(page)).toEqual(
    [ALPHA.name, ALPHA2, BETA.name, RESUME.name, ZETA.name].sort((a, b) => a.localeCompare(b)),
  );
  await check(page, BETA.name).click();
  await check(page, ZETA.name).click({ modifiers: ['Shift'] });
  const bulk = page.getByRole('region', { name: 'Selected files' });
  await expect(bulk).toContainText('3 selected');
  await expect(check(page, RESUME.name)).toBeChecked();

  // Several files download as one ZIP, streamed; unzipped, every byte is the uploaded one.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    bulk.getByRole('button', { name: 'Download as ZIP' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Papers.zip');
  const unzipped = unzipSync(new Uint8Array(fs.readFileSync(await download.path())));
  expect(Object.keys(unzipped).sort()).toEqual([BETA.name, RESUME.name, ZETA.name].sort());
  for (const f of [BETA, RESUME, ZETA]) {
    expect(Buffer.from(unzipped[f.name]!).equals(f.buffer)).toBe(true);
  }

  // From the keyboard: Ctrl+A on a checkbox selects every file, Escape clears.
  await check(page, BETA.name).focus();
  await page.keyboard.press('Control+a');
  await expect(bulk).toContainText('5 selected');
  await expect(page.getByRole('checkbox', { name: 'Select all' })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(bulk).toBeHidden();

  // A search narrows what "Select all" and the bulk delete act on.
  await search.fill('alpha');
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await expect(bulk).toContainText('2 selected');
  await bulk.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete files' });
  await expect(confirm).toContainText('Are you sure you want to delete 2 files?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await search.fill('');
  await expect(page.getByText('3 files', { exact: true })).toBeVisible();
  expect(await shownNames(page)).toEqual(
    [BETA.name, RESUME.name, ZETA.name].sort((a, b) => a.localeCompare(b)),
  );

  // Zero knowledge: none of the names is anywhere on the server side.
  expect(serverFilesContaining(['quokkafig', ALPHA2, RESUME.name, 'Papers.zip'])).toEqual([]);
});
