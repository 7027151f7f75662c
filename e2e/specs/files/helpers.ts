// Page helpers for the file-browser specs.
import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn } from '../../support/vaults.ts';
import { adminUpgrade, promote } from '../subscription/plans.ts';
import { emulatorControl } from '../../support/constants.ts';

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

/** A text file fixture. */
export const textFixture = (name: string, body: string): Fixture => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(body),
});

/** Makes a folder in the folder open, through the New folder dialog; answers the dialog. */
export async function newFolder(page: Page, name: string) {
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  return dialog;
}

/** The paths Dropbox holds in the folder of the user's vault `name` (the emulator is shared). */
export async function dropboxPaths(page: Page, name: string): Promise<string[]> {
  const folder = (await vaultFolder(page, name)).toLowerCase();
  const { files } = (await (await fetch(`${emulatorControl.dropbox()}/files`)).json()) as {
    files: { path_lower: string }[];
  };
  return files.map((f) => f.path_lower).filter((p) => p.startsWith(`${folder}/`));
}

/** Moves a file or folder to the trash with its row's Delete button; waits until it has gone. */
export async function moveToTrash(page: Page, name: string): Promise<void> {
  await fileRow(page, name)
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  await expect(page.getByText(`"${name}" moved to the trash.`).last()).toBeVisible();
  await expect(fileRow(page, name)).toHaveCount(0);
}

/** The Trash button of the file browser ("Trash (2)" when it holds something). */
export const trashButton = (page: Page) => page.getByRole('button', { name: /^Trash( \(\d+\))?$/ });

/** Opens the trash, empties it (everything is deleted for good) and goes back to the files. */
export async function emptyTrash(page: Page): Promise<void> {
  await trashButton(page).click();
  await page.getByRole('button', { name: 'Empty trash' }).click();
  const confirm = page.getByRole('dialog', { name: 'Empty trash' });
  await confirm.getByRole('button', { name: 'Empty trash' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  await page.getByRole('button', { name: 'Back to files' }).click();
}

/** Deletes a file for good: to the trash, then the trash is emptied. */
export async function deleteForGood(page: Page, name: string): Promise<void> {
  await moveToTrash(page, name);
  await emptyTrash(page);
}

/** Opens a file's preview by its name. */
export async function openPreview(page: Page, name: string) {
  await fileRow(page, name).getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A signed-in user on the Unlimited plan (no size limit), inside a new unlocked file vault. */
export async function unlimitedFileVault(
  page: Page,
  request: APIRequestContext,
  baseURL: string,
  tag: string,
  vault: string,
  provider: 'SealVault storage' | 'This browser' = 'SealVault storage',
): Promise<void> {
  const user = await signedIn(page, request, baseURL, tag);
  promote(user.email);
  await page.goto('/dashboard?view=subscription');
  await adminUpgrade(page, 'Unlimited');
  await page.goto('/dashboard');
  await createVault(page, { name: vault, type: 'File vault', provider });
  await openAndUnlock(page, vault);
}

/**
 * Uploads a `size`-byte file of a fixed pattern through the dialog, from disk (Playwright takes
 * buffers up to 50 MB only); returns its bytes.
 */
export async function uploadLargeFile(page: Page, name: string, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4096) buffer.writeUInt32LE((i * 2654435761) >>> 0, i);
  const source = test.info().outputPath(name);
  fs.writeFileSync(source, buffer);
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose files to upload').setInputFiles(source);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 90_000 });
  await expect(fileRow(page, name)).toBeVisible();
  return buffer;
}

/** The connect card of a cloud provider in Settings → Cloud Storage Settings. */
export async function cloudCard(page: Page, name: string) {
  await page.goto('/dashboard?view=settings');
  return page
    .getByRole('region', { name: 'Cloud Storage Settings' })
    .getByRole('region', { name, exact: true });
}

/** Connects a cloud provider through its sign-in popup; the card then says Connected. */
export async function connectCloud(page: Page, name: string): Promise<void> {
  const card = await cloudCard(page, name);
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    card.getByRole('button', { name: 'Connect' }).click(),
  ]);
  // Not waitForEvent('close'): the popup may close (the emulator approves at once) before a
  // listener is attached on a busy machine, and then the wait never ends.
  await expect(card.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => popup.isClosed()).toBe(true);
}

/** A signed-in user on the Unlimited plan (cloud specs upload files above the free 2 MB). */
export async function unlimitedUser(
  page: Page,
  request: APIRequestContext,
  baseURL: string,
  tag: string,
): Promise<void> {
  const user = await signedIn(page, request, baseURL, tag);
  promote(user.email);
  await page.goto('/dashboard?view=subscription');
  await adminUpgrade(page, 'Unlimited');
}

/**
 * An emulated Dropbox without room, for the next upload only: Dropbox's insufficient_space answer
 * as an injected fault (POST /__emulator/faults), not a smaller quota, since the emulator is shared
 * with the specs running beside the one that uses it.
 */
export const DROPBOX_FULL_FAULT = {
  path: '/2/files/upload_session/finish',
  count: 1,
  status: 409,
  body: {
    error_summary: 'path/insufficient_space/..',
    error: { '.tag': 'path', path: { '.tag': 'insufficient_space' } },
  },
};

/**
 * The folder at the provider that the server recorded for the user's vault `name` (a Dropbox path,
 * a Drive folder id). Not derived from the name: every spec shares one emulated account, and a
 * vault whose name another spec's vault already took gets "name (1)" (autorename).
 */
export async function vaultFolder(page: Page, name: string): Promise<string> {
  const res = await page.request.get('/api/vaults');
  expect(res.ok()).toBe(true);
  const { vaults } = (await res.json()) as {
    vaults: { name: string; storage_folder: string | null }[];
  };
  const folder = vaults.find((v) => v.name === name)?.storage_folder;
  expect(folder, `the storage folder of ${name}`).toBeTruthy();
  return folder!;
}
