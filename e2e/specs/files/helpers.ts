// Page helpers for the file-browser specs.
import { expect, type Page } from '@playwright/test';

export interface Fixture {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const fileRow = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Files' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name, exact: true }) });

/** Picks files in the upload dialog and uploads them; waits until the dialog closes. */
export async function uploadByPicker(page: Page, files: Fixture[]): Promise<void> {
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose files to upload').setInputFiles(files);
  for (const f of files) await expect(dialog.getByText(f.name, { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  for (const f of files) await expect(fileRow(page, f.name)).toBeVisible();
}

/** Opens a file's preview by its name. */
export async function openPreview(page: Page, name: string) {
  await fileRow(page, name).getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return dialog;
}
