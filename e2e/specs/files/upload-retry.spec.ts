// A lost connection during an upload: the PATCH is retried (tus, resuming at the server's
// offset) and the upload completes without the user doing anything.
import { expect, test } from '@playwright/test';
import { createVault, openAndUnlock, signedIn } from '../../support/vaults.ts';
import { fileRow } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

test('an upload survives a lost connection and completes', async ({ page, request, baseURL }) => {
  await signedIn(page, request, baseURL!, 'upload-retry');
  await createVault(page, { name: 'Travel', type: 'File vault' });
  await openAndUnlock(page, 'Travel');

  // The first five PATCHes never reach the server, as when the network is gone for ~20 s
  // (tus-js-client's default retries would have given up after four).
  let patches = 0;
  await page.route('**/api/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH' && ++patches <= 5) {
      await route.abort('internetdisconnected');
      return;
    }
    await route.continue();
  });
  const text = 'Boarding passes for the night train to Lisbon.\n'.repeat(20_000); // ~0.9 MB
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog
    .getByLabel('Choose files to upload')
    .setInputFiles({ name: 'itinerary.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByText(/^Uploading\.\.\. \d+%$/)).toBeVisible();
  // The user is told, and the upload goes on by itself.
  await expect(
    dialog.getByRole('status').filter({ hasText: 'Connection lost. Retrying...' }),
  ).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 60_000 }); // the retries wait 19 s in all
  expect(patches).toBe(6);
  await expect(fileRow(page, 'itinerary.txt')).toContainText(
    `${(Buffer.byteLength(text) / 1024).toFixed(1)} KB`,
  );
  await expect(page.getByText('1 file', { exact: true })).toBeVisible();
});
