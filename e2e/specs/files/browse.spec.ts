// Files people live in (issue 28), on our server: search by name as you type, sort remembered per
// vault, a name already in use (keep both, skip), selection with shift-click and the keyboard,
// several files downloaded as one ZIP whose unzipped bytes are the uploaded ones, and a bulk
// delete. The server learns none of the names.
import fs from 'node:fs';
import { unzipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';
import { serverFilesContaining } from '../../support/zero-knowledge.ts';
import { emulatorControl } from '../../support/constants.ts';
import { makePng } from './fixtures.ts';
import {
  connectCloud,
  dropboxPaths,
  fileRow,
  moveToTrash,
  newFolder,
  textFixture,
  trashButton,
  uploadByPicker,
  type Fixture,
} from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

const text = textFixture;
const ALPHA = text('alpha quokkafig notes.txt', 'alpha'.repeat(2));
const RESUME = text('Résumé quokkafig 2026.txt', 'résumé '.repeat(400));
const ZETA = text('zeta quokkafig table.csv', 'a,b\n'.repeat(100));
const BETA = text('beta quokkafig.txt', 'beta'.repeat(30));
const RECEIPT = text('receipt quokkafig.txt', 'a receipt');
const PICTURE: Fixture = {
  name: 'harbour quokkafig.png',
  mimeType: 'image/png',
  buffer: makePng(120, 80, [30, 120, 200]),
};
const OLD_PICTURE: Fixture = {
  name: 'older quokkafig.png',
  mimeType: 'image/png',
  buffer: makePng(90, 60, [200, 90, 30]),
};

/** The file names as the list shows them, top to bottom. */
const shownNames = (page: Page) =>
  page
    .getByRole('list', { name: 'Files' })
    .getByRole('listitem')
    .getByRole('button', { name: /quokkafig/, exact: false })
    .filter({ hasNot: page.locator('svg') })
    .allInnerTexts();
const check = (page: Page, name: string) => page.getByRole('checkbox', { name: `Select ${name}` });

test('search, sort, a name in use, selection, a ZIP of several files, a bulk delete, thumbnails', async ({
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
  await expect(page.getByText('2 items moved to the trash.')).toBeVisible();
  await expect(trashButton(page)).toHaveText('Trash (2)');
  await search.fill('');
  await expect(page.getByText('3 files', { exact: true })).toBeVisible();
  expect(await shownNames(page)).toEqual(
    [BETA.name, RESUME.name, ZETA.name].sort((a, b) => a.localeCompare(b)),
  );

  // Thumbnails: a picture gets one at upload, made in the browser and shown in the grid. One
  // uploaded where none could be made (as before thumbnails) gets its own when first previewed.
  await uploadByPicker(page, [PICTURE]);
  // The canvas refuses to encode while it uploads: no thumbnail, as for a file from before.
  await page.evaluate(() => {
    const proto = OffscreenCanvas.prototype as unknown as Record<string, unknown>;
    proto.__convert = proto.convertToBlob;
    proto.convertToBlob = () => Promise.reject(new Error('no thumbnails'));
  });
  await uploadByPicker(page, [OLD_PICTURE]);
  await page.evaluate(() => {
    const proto = OffscreenCanvas.prototype as unknown as Record<string, unknown>;
    proto.convertToBlob = proto.__convert;
  });
  await page.getByRole('button', { name: 'Grid view' }).click();
  const tile = (name: string) => page.getByRole('gridcell').filter({ hasText: name });
  await expect(tile(PICTURE.name).locator('img[data-thumbnail]')).toBeVisible();
  await expect(tile(OLD_PICTURE.name).locator('img[data-thumbnail]')).toHaveCount(0);
  await tile(OLD_PICTURE.name).getByTitle(OLD_PICTURE.name).click();
  const preview = page.getByRole('dialog', { name: OLD_PICTURE.name });
  await expect(preview.getByRole('img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(tile(OLD_PICTURE.name).locator('img[data-thumbnail]')).toBeVisible();
  // Thumbnails are files of their own, not listed: the count is still the files uploaded.
  await expect(page.getByText('5 files', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'List view' }).click();

  // Zero knowledge: none of the names is anywhere on the server side, nor a thumbnail's bytes.
  expect(
    serverFilesContaining(['quokkafig', ALPHA2, RESUME.name, 'Papers.zip', 'WEBPVP8']),
  ).toEqual([]);
});

const dropboxHolds = async (text: string) => {
  const res = await fetch(`${emulatorControl.dropbox()}/find-bytes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  const r = (await res.json()) as { files: unknown[]; sessions: unknown[] };
  return r.files.length + r.sessions.length;
};

const here = (page: Page) =>
  page.getByRole('navigation', { name: 'Folder path' }).locator('[aria-current="page"]');

test('folders in a Dropbox vault: nest, bookmark, move, drag, upload a folder, ZIP one, delete one', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'folders');
  await connectCloud(page, 'Dropbox');
  await page.goto('/dashboard');
  await createVault(page, { name: 'Drawers', type: 'File vault', provider: 'Dropbox' });
  await openAndUnlock(page, 'Drawers');

  // A folder at the root, and one inside it, opened by its name; the path shows where we are.
  await expect(await newFolder(page, 'Taxes quokkafig')).toBeHidden();
  await expect(fileRow(page, 'Taxes quokkafig')).toContainText('0 items');
  await fileRow(page, 'Taxes quokkafig')
    .getByRole('button', { name: 'Taxes quokkafig', exact: true })
    .click();
  await expect(here(page)).toHaveText('Taxes quokkafig');
  await expect(page).toHaveURL(/\?folder=[0-9a-f-]{36}$/);
  await expect(page.getByText('This folder is empty.')).toBeVisible();
  await expect(await newFolder(page, '2026')).toBeHidden();
  await uploadByPicker(page, [RECEIPT]);
  // A name in use in this folder is refused before anything is made.
  const taken = await newFolder(page, '2026');
  await expect(taken.getByRole('alert')).toHaveText(
    'A file or folder with this name already exists here.',
  );
  await taken.getByRole('button', { name: 'Cancel' }).click();

  // The folder's address can be bookmarked: a reload comes back to it once unlocked.
  await page.reload();
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(here(page)).toHaveText('Taxes quokkafig');

  // Move a file with the dialog: the folder it is in already cannot be chosen.
  await fileRow(page, RECEIPT.name)
    .getByRole('button', { name: `Move ${RECEIPT.name}` })
    .click();
  const move = page.getByRole('dialog', { name: `Move "${RECEIPT.name}"` });
  await expect(move.getByRole('radio', { name: 'Taxes quokkafig' })).toBeDisabled();
  await move.getByRole('radio', { name: '2026' }).check();
  await move.getByRole('button', { name: 'Move here' }).click();
  await expect(move).toBeHidden();
  await expect(fileRow(page, RECEIPT.name)).toBeHidden();
  await expect(fileRow(page, '2026')).toContainText('1 item');

  // Back to the root by the path; upload a folder with a folder inside it.
  await page
    .getByRole('navigation', { name: 'Folder path' })
    .getByRole('button', { name: 'All files' })
    .click();
  await expect(here(page)).toHaveText('All files');
  const scans = test.info().outputPath('Scans quokkafig');
  fs.mkdirSync(`${scans}/sub`, { recursive: true });
  fs.writeFileSync(`${scans}/a.txt`, 'scan a');
  fs.writeFileSync(`${scans}/sub/b.txt`, 'scan b');
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose a folder to upload').setInputFiles(scans);
  await expect(dialog.getByText('Scans quokkafig/sub/')).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(fileRow(page, 'Scans quokkafig')).toContainText('2 items');

  // Drag the uploaded folder onto the other: one record moves, what is inside follows.
  await fileRow(page, 'Scans quokkafig').dragTo(fileRow(page, 'Taxes quokkafig'));
  await expect(fileRow(page, 'Scans quokkafig')).toBeHidden();
  await expect(fileRow(page, 'Taxes quokkafig')).toContainText('2 items');

  // A folder renamed keeps what is in it; a search finds a file at any depth and says where.
  await fileRow(page, 'Taxes quokkafig')
    .getByRole('button', { name: 'Rename Taxes quokkafig' })
    .click();
  await page.getByLabel('New name for Taxes quokkafig').fill('Archive quokkafig');
  await page.getByLabel('New name for Taxes quokkafig').press('Enter');
  await expect(fileRow(page, 'Archive quokkafig')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search files' }).fill('b.txt');
  await expect(fileRow(page, 'b.txt')).toContainText(
    'in Archive quokkafig / Scans quokkafig / sub',
  );
  await page.getByRole('searchbox', { name: 'Search files' }).fill('');

  // A folder downloads as one ZIP with its tree.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    fileRow(page, 'Archive quokkafig')
      .getByRole('button', { name: 'Download Archive quokkafig as ZIP' })
      .click(),
  ]);
  expect(download.suggestedFilename()).toBe('Archive quokkafig.zip');
  const zip = unzipSync(new Uint8Array(fs.readFileSync(await download.path())));
  expect(Object.keys(zip).sort()).toEqual([
    'Archive quokkafig/2026/receipt quokkafig.txt',
    'Archive quokkafig/Scans quokkafig/a.txt',
    'Archive quokkafig/Scans quokkafig/sub/b.txt',
  ]);
  expect(Buffer.from(zip['Archive quokkafig/Scans quokkafig/sub/b.txt']!).toString()).toBe(
    'scan b',
  );

  // Neither the server nor Dropbox learned a folder or file name.
  expect(serverFilesContaining(['quokkafig', 'receipt'])).toEqual([]);
  const held = await dropboxPaths(page, 'Drawers');
  expect(held.length).toBe(7); // three files, four folders
  expect(held.filter((p) => /quokkafig|receipt|scans|2026/.test(p))).toEqual([]);
  expect(await dropboxHolds('quokkafig')).toBe(0);

  // Deleting a folder puts it in the trash with everything in it; emptying the trash deletes it
  // all, on Dropbox too.
  await moveToTrash(page, 'Archive quokkafig');
  await expect(page.getByText('No files in this vault')).toBeVisible();
  await trashButton(page).click();
  await page.getByRole('button', { name: 'Empty trash' }).click();
  const confirm = page.getByRole('dialog', { name: 'Empty trash' });
  await expect(confirm).toContainText(
    'Delete everything in the trash, the folder "Archive quokkafig" and everything in it (3 files), for good? This cannot be undone.',
  );
  await confirm.getByRole('button', { name: 'Empty trash' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  // The three files and four folders (each stored as an empty encrypted file) are gone.
  await expect.poll(() => dropboxPaths(page, 'Drawers')).toEqual([]);
});
