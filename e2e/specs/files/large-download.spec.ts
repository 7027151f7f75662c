// A large file in a browser without the File System Access API (Firefox, Safari): the download
// streams through the media Service Worker as an attachment, decrypted as the browser pulls it,
// never as an in-memory Blob; the saved bytes are identical to the uploaded ones.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { errorToasts } from '../../support/toasts.ts';
import { unlimitedFileVault, uploadLargeFile } from './helpers.ts';

test.describe.configure({ timeout: 180_000 });

const SIZE = 52 * 1024 * 1024 + 12_345; // past the 50 MiB Blob limit, not on a chunk boundary

test('a large download without File System Access streams through the Service Worker', async ({
  page,
  request,
  baseURL,
}) => {
  // This browser has showSaveFilePicker: take it away, and count Blob URLs made by the page.
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    const w = window as unknown as { __blobUrls: number };
    w.__blobUrls = 0;
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (obj: Blob | MediaSource) => {
      w.__blobUrls += 1;
      return create(obj);
    };
  });
  await unlimitedFileVault(page, request, baseURL ?? '', 'large', 'Big files');
  const name = 'survey scans (2026).bin';
  const buffer = await uploadLargeFile(page, name, SIZE);

  await page.evaluate(() => ((window as unknown as { __blobUrls: number }).__blobUrls = 0));
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByRole('button', { name: `Download ${name}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(name);
  expect(download.url()).toMatch(/\/__media\/[0-9a-f-]{36}$/);
  const saved = fs.readFileSync(await download.path());
  expect(saved.length).toBe(SIZE);
  expect(createHash('sha256').update(saved).digest('hex')).toBe(
    createHash('sha256').update(buffer).digest('hex'),
  );
  expect(await page.evaluate(() => (window as unknown as { __blobUrls: number }).__blobUrls)).toBe(
    0,
  );
  // The one-time URL is gone once used.
  const again = await page.evaluate(
    async (url) => (await fetch(url)).status,
    new URL(download.url()).pathname,
  );
  expect(again).toBe(404);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
});
