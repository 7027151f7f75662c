// A "This browser" vault (provider 'local'): its ciphertext lives in the browser's origin private
// file system, only its records on the server. Created through the wizard; upload, preview, a
// byte-identical download; reload, unlock, still there; opened from another browser it says its
// files live elsewhere; deleting a file and the vault removes their data from the browser; the
// server's data directory never holds the ciphertext.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, vaultCard } from '../../support/vaults.ts';
import { signInWithForm } from '../../support/accounts.ts';
import { serverFilesContaining } from '../../support/zero-knowledge.ts';
import {
  deleteForGood,
  fileRow,
  unlimitedFileVault,
  uploadByPicker,
  uploadLargeFile,
} from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

const NOTE = 'Wren sketches, third notebook: the harbour at dawn, twice.\n'.repeat(300);

/** Names and sizes of the vault's blobs in this browser's OPFS. */
const opfsBlobs = (page: Page, vaultId: string) =>
  page.evaluate(async (id) => {
    const root = await navigator.storage.getDirectory();
    try {
      const dir = await (await root.getDirectoryHandle('vaults')).getDirectoryHandle(id);
      const out: { name: string; size: number; head: number[] }[] = [];
      const entries = (
        dir as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }
      ).entries();
      for await (const [name, handle] of entries) {
        const file = await handle.getFile();
        const head = [...new Uint8Array(await file.slice(100, 164).arrayBuffer())];
        out.push({ name, size: file.size, head });
      }
      return out;
    } catch {
      return null; // no container
    }
  }, vaultId);

test('a "This browser" vault keeps its files in this browser only', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const user = await signedIn(page, request, baseURL!, 'local-vault');
  await createVault(page, { name: 'Sketches', type: 'File vault', provider: 'This browser' });
  await openAndUnlock(page, 'Sketches');
  const vaultId = new URL(page.url()).pathname.split('/').pop()!;

  await uploadByPicker(page, [
    { name: 'harbour.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTE) },
  ]);
  await expect(
    page.getByText(/^Stored in this browser only: .+ used of .+ available/),
  ).toBeVisible();

  // The ciphertext is in OPFS, under the file's id, and nowhere on the server.
  const blobs = await opfsBlobs(page, vaultId);
  expect(blobs).toHaveLength(1);
  expect(blobs![0]!.size).toBeGreaterThan(Buffer.byteLength(NOTE));
  expect(serverFilesContaining([NOTE.slice(0, 60), Buffer.from(blobs![0]!.head)])).toEqual([]);
  const listed = (await (await page.request.get(`/api/vaults/${vaultId}/files`)).json()) as {
    files: { id: string; storage_ref: string | null; checksum_algorithm: string }[];
  };
  expect(listed.files).toEqual([
    expect.objectContaining({
      storage_ref: blobs![0]!.name,
      checksum_algorithm: 'content-hash-4m',
    }),
  ]);

  // Preview and a byte-identical download.
  await fileRow(page, 'harbour.txt')
    .getByRole('button', { name: 'harbour.txt', exact: true })
    .click();
  const preview = page.getByRole('dialog', { name: 'harbour.txt' });
  await expect(preview.getByText('the harbour at dawn').first()).toBeVisible();
  await preview.getByRole('button', { name: 'Close' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    fileRow(page, 'harbour.txt').getByRole('button', { name: 'Download harbour.txt' }).click(),
  ]);
  expect(fs.readFileSync(await download.path()).equals(Buffer.from(NOTE))).toBe(true);

  // Reload: the vault is locked again; unlocked, its file is still here and opens.
  await page.reload();
  await page.goto('/dashboard');
  await openAndUnlock(page, 'Sketches');
  await expect(fileRow(page, 'harbour.txt')).toBeVisible();
  await expect(page.getByText(/live in another browser/)).toHaveCount(0);

  // Another browser (a fresh profile: its own OPFS) sees the record, and is told where the file is.
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await elsewhere.goto('/auth');
  await signInWithForm(elsewhere, user);
  await openAndUnlock(elsewhere, 'Sketches');
  await expect(fileRow(elsewhere, 'harbour.txt')).toBeVisible();
  await expect(
    elsewhere.getByRole('status').filter({ hasText: 'live in another browser' }),
  ).toContainText("This vault's files live in another browser.");
  await other.close();

  // Deleting the file removes its data here; deleting the vault removes its container.
  await deleteForGood(page, 'harbour.txt');
  await expect(page.getByText('No files in this vault')).toBeVisible();
  expect(await opfsBlobs(page, vaultId)).toEqual([]);
  await page.getByRole('link', { name: 'Back to Dashboard' }).first().click();
  await vaultCard(page, 'Sketches').getByRole('button', { name: 'Delete vault Sketches' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete vault' });
  await confirm.getByRole('button', { name: 'Delete vault' }).click();
  await expect(confirm).toBeHidden();
  expect(await opfsBlobs(page, vaultId)).toBeNull();
});

test('a "This browser" file of several 4 MiB blocks round-trips byte-identical', async ({
  page,
  request,
  baseURL,
}) => {
  await unlimitedFileVault(page, request, baseURL!, 'local-large', 'Scans', 'This browser');
  const name = 'scans.bin';
  const buffer = await uploadLargeFile(page, name, 9 * 1024 * 1024 + 321);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download ${name}` }).click(),
  ]);
  const saved = fs.readFileSync(await download.path());
  expect(createHash('sha256').update(saved).digest('hex')).toBe(
    createHash('sha256').update(buffer).digest('hex'),
  );
});
