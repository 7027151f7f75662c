// The file browser: the plan-limit message, upload by picker (with progress) and by drop, list
// and grid, rename, a byte-identical download, delete, and what the server keeps (nothing
// readable: no names, no contents, no password).
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';
import { errorToasts } from '../../support/toasts.ts';
import { serverFilesContaining, serverLogSize } from '../../support/zero-knowledge.ts';
import { fileRow, moveToTrash } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

const NOTES = 'kumquat-ledger-notes.txt';
const NOTES_TEXT = 'The quartermaster keeps the kumquat ledger in the blue drawer.\n'.repeat(2000);
const DROPPED = 'pelican-dropped-memo.txt';
const DROPPED_TEXT = 'A pelican memo that arrived by drag and drop.';

test('upload, list and grid, rename, download, delete; the server learns nothing', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'files');
  await createVault(page, { name: 'Archive', type: 'File vault' });
  await openAndUnlock(page, 'Archive');
  await expect(page.getByText('0 files')).toBeVisible();
  await expect(page.getByText('No files in this vault')).toBeVisible();

  // The free plan allows 2 MB per file: the browser refuses a 3 MB file with the spec's message.
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose files to upload').setInputFiles({
    name: 'too-big.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(3 * 1024 * 1024, 1),
  });
  await expect(dialog.getByRole('alert')).toHaveText(
    "File size (3.0 MB) exceeds your plan's limit. Please upgrade your subscription or choose a smaller file.",
  );
  // One size formatter everywhere (B, KB, MB, GB; steps of 1024, one decimal).
  await expect(dialog.getByText('3.0 MB', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Upload by the picker; the transfer is held back a little so the progress is visible.
  await page.route('**/api/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 1500));
    await route.continue().catch(() => undefined); // a cancelled upload's request is gone
  });
  // Cancel while uploading: nothing is stored, the selection stays for another try.
  await page.getByRole('button', { name: 'Upload Files' }).click();
  await dialog
    .getByLabel('Choose files to upload')
    .setInputFiles({ name: 'cancelled.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Uploading...' })).toBeVisible();
  // A stray Escape does not stop it; Cancel does.
  await page.keyboard.press('Escape');
  await expect(dialog.getByRole('button', { name: 'Uploading...' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByRole('button', { name: 'Upload', exact: true })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.waitForTimeout(2000);
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Unlock Vault' })).toBeVisible();
  await page
    .getByRole('dialog', { name: 'Unlock Vault' })
    .getByLabel('Vault password')
    .fill(VAULT_PASSWORD);
  await page
    .getByRole('dialog', { name: 'Unlock Vault' })
    .getByRole('button', { name: 'Unlock' })
    .click();
  await expect(page.getByText('No files in this vault')).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Upload Files' }).click();
  await dialog
    .getByLabel('Choose files to upload')
    .setInputFiles({ name: NOTES, mimeType: 'text/plain', buffer: Buffer.from(NOTES_TEXT) });
  const kb = `${(Buffer.byteLength(NOTES_TEXT) / 1024).toFixed(1)} KB`;
  await expect(dialog.getByText(kb)).toBeVisible();
  await expect(dialog.getByRole('checkbox')).toBeChecked();
  const uploadedOn = new Date();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(
    dialog.getByRole('progressbar', { name: `Upload progress of ${NOTES}` }),
  ).toBeVisible();
  await expect(dialog.getByText(/^Uploading\.\.\. \d+%$/)).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await page.unroute('**/api/uploads/*');
  await expect(fileRow(page, NOTES)).toBeVisible();
  await expect(page.getByText('1 file', { exact: true })).toBeVisible();
  await expect(fileRow(page, NOTES)).toContainText(
    `${(Buffer.byteLength(NOTES_TEXT) / 1024).toFixed(1)} KB`,
  );
  // The upload's day, or the next one when it ran across midnight (a CI run at 23:59 met it).
  const day = (d: Date) => new Intl.DateTimeFormat('en-US').format(d);
  const days = [...new Set([day(uploadedOn), day(new Date())])];
  await expect(fileRow(page, NOTES)).toContainText(
    new RegExp(days.map((d) => d.replace(/\//g, '\\/')).join('|')),
  );

  // Upload by drag and drop, with the overlay.
  const section = page.locator('section[aria-labelledby="files-title"]');
  const dt = await page.evaluateHandle(
    ({ name, text }) => {
      const d = new DataTransfer();
      d.items.add(new File([text], name, { type: 'text/plain' }));
      return d;
    },
    { name: DROPPED, text: DROPPED_TEXT },
  );
  await section.dispatchEvent('dragenter', { dataTransfer: dt });
  await expect(page.getByText('Drop files to upload')).toBeVisible();
  await section.dispatchEvent('drop', { dataTransfer: dt });
  await expect(page.getByText('Drop files to upload')).toBeHidden();
  await expect(dialog.getByText(DROPPED, { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(fileRow(page, DROPPED)).toBeVisible();
  await expect(page.getByText('2 files')).toBeVisible();

  // Grid view, then back to the list.
  await page.getByRole('button', { name: 'Grid view' }).click();
  const grid = page.getByRole('grid', { name: 'Files' });
  await expect(grid.getByRole('gridcell')).toHaveCount(2);
  await expect(grid.getByRole('button', { name: new RegExp(NOTES) })).toBeVisible();
  await page.getByRole('button', { name: 'List view' }).click();

  // Rename inline: Escape cancels, an unchanged name cancels, Enter keeps the extension.
  await fileRow(page, NOTES)
    .getByRole('button', { name: `Rename ${NOTES}` })
    .click();
  const field = page.getByLabel(`New name for ${NOTES}`);
  await expect(field).toHaveValue('kumquat-ledger-notes');
  await field.fill('something else');
  await field.press('Escape');
  await expect(field).toBeHidden();
  await expect(fileRow(page, NOTES)).toBeVisible();
  await fileRow(page, NOTES)
    .getByRole('button', { name: `Rename ${NOTES}` })
    .click();
  await page.getByLabel(`New name for ${NOTES}`).fill('quince-ledger');
  await page.getByLabel(`New name for ${NOTES}`).press('Enter');
  const RENAMED = 'quince-ledger.txt';
  await expect(fileRow(page, RENAMED)).toBeVisible();
  // A name already taken is refused by the server.
  await fileRow(page, RENAMED)
    .getByRole('button', { name: `Rename ${RENAMED}` })
    .click();
  await page.getByLabel(`New name for ${RENAMED}`).fill('pelican-dropped-memo');
  await page.getByLabel(`New name for ${RENAMED}`).press('Enter');
  await expect(errorToasts(page)).toBeVisible();
  await expect(fileRow(page, RENAMED)).toBeVisible();

  // A byte-identical download.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    fileRow(page, RENAMED)
      .getByRole('button', { name: `Download ${RENAMED}` })
      .click(),
  ]);
  expect(download.suggestedFilename()).toBe(RENAMED);
  expect(fs.readFileSync(await download.path()).equals(Buffer.from(NOTES_TEXT))).toBe(true);

  // Delete: to the trash at once.
  await moveToTrash(page, DROPPED);
  await expect(page.getByText('1 file', { exact: true })).toBeVisible();

  // Zero knowledge: no name, content or password anywhere on the server side.
  expect(serverLogSize()).toBeGreaterThan(0);
  expect(
    serverFilesContaining([
      NOTES,
      RENAMED,
      DROPPED,
      'kumquat ledger',
      'pelican memo',
      VAULT_PASSWORD,
    ]),
  ).toEqual([]);
});
