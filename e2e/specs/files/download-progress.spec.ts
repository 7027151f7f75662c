// A long download to disk (File System Access): the file browser shows its progress and a
// Cancel, the page asks before it is left meanwhile, and a cancelled download leaves no error
// and an aborted file. The browser's save picker is stubbed with a slow writable that keeps what
// it gets, so the saved bytes can be checked.
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { errorToasts } from '../../support/toasts.ts';
import { unlimitedFileVault, uploadLargeFile } from './helpers.ts';

test.describe.configure({ timeout: 180_000 });

const SIZE = 51 * 1024 * 1024 + 777; // past the 50 MiB Blob limit: streamed to the picked file

interface Saved {
  bytes: number;
  closed: boolean;
  aborted: boolean;
  sha256?: string;
}

/** What the stubbed save picker's latest file received. */
const saved = (page: Page) =>
  page.evaluate(() => (window as unknown as { __saved: Saved[] }).__saved.at(-1));

test('a long download shows its progress, can be cancelled, and guards the page', async ({
  page,
  request,
  baseURL,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __saved: Saved[]; showSaveFilePicker: unknown };
    w.__saved = [];
    w.showSaveFilePicker = () =>
      Promise.resolve({
        createWritable: () => {
          const file: Saved = { bytes: 0, closed: false, aborted: false };
          const parts: Uint8Array[] = [];
          w.__saved.push(file);
          return Promise.resolve(
            new WritableStream<Uint8Array>({
              async write(chunk) {
                parts.push(chunk.slice());
                file.bytes += chunk.byteLength;
                await new Promise((r) => setTimeout(r, 20)); // a slow disk
              },
              async close() {
                const all = new Uint8Array(file.bytes);
                let at = 0;
                for (const p of parts) {
                  all.set(p, at);
                  at += p.length;
                }
                const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
                file.sha256 = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
                file.closed = true;
              },
              abort() {
                file.aborted = true;
              },
            }),
          );
        },
      });
  });
  await unlimitedFileVault(page, request, baseURL ?? '', 'dlprogress', 'Archive');
  const name = 'field recordings.wav';
  const buffer = await uploadLargeFile(page, name, SIZE);

  const downloads = page.getByRole('list', { name: 'Downloads' });
  const bar = page.getByRole('progressbar', { name: `Download progress of ${name}` });
  const percent = async () => Number(await bar.getAttribute('value'));

  // 1. To the end: the progress moves, then the row goes; the file holds the exact bytes.
  await page.getByRole('button', { name: `Download ${name}` }).click();
  await expect(downloads.getByText(`Downloading ${name}...`)).toBeVisible();
  await expect.poll(percent).toBeGreaterThan(10);
  await expect(downloads).toBeHidden({ timeout: 60_000 });
  const whole = await saved(page);
  expect(whole).toMatchObject({ bytes: SIZE, closed: true, aborted: false });
  expect(whole?.sha256).toBe(createHash('sha256').update(buffer).digest('hex'));

  // 2. Leaving while a download runs asks first.
  await page.getByRole('button', { name: `Download ${name}` }).click();
  await expect.poll(percent).toBeGreaterThan(5);
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  expect(page.isClosed()).toBe(false);

  // 3. Cancel: the row goes at once, the file is aborted, and no error is shown.
  await page.getByRole('button', { name: `Cancel download of ${name}` }).click();
  await expect(downloads).toBeHidden();
  await expect.poll(async () => (await saved(page))?.aborted).toBe(true);
  expect((await saved(page))?.closed).toBe(false);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
});

// [Note: downloads written in the Worker]: a real file handle (here one of the origin's private
// file system, which the save dialog's handles are like) goes to the crypto Worker, which
// fetches, decrypts and writes the file itself; the page shows the progress. A cancelled one
// leaves the file as it was.
test('a download to a real file handle is written by the crypto Worker', async ({
  page,
  request,
  baseURL,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { showSaveFilePicker: unknown; __picked: string[] };
    w.__picked = [];
    w.showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) => {
      const name = `${w.__picked.length}-${suggestedName}`;
      w.__picked.push(name);
      const dir = await navigator.storage.getDirectory();
      return dir.getFileHandle(name, { create: true });
    };
  });
  /** The SHA-256 and size of the latest picked file, as saved. */
  const picked = (page: Page) =>
    page.evaluate(async () => {
      const w = window as unknown as { __picked: string[] };
      const dir = await navigator.storage.getDirectory();
      const file = await (await dir.getFileHandle(w.__picked.at(-1)!)).getFile();
      const digest = new Uint8Array(
        await crypto.subtle.digest('SHA-256', await file.arrayBuffer()),
      );
      return {
        size: file.size,
        sha256: [...digest].map((b) => b.toString(16).padStart(2, '0')).join(''),
      };
    });
  await unlimitedFileVault(page, request, baseURL ?? '', 'dlworker', 'Archive');
  const name = 'field recordings.wav';
  const buffer = await uploadLargeFile(page, name, SIZE);
  const downloads = page.getByRole('list', { name: 'Downloads' });

  const bar = page.getByRole('progressbar', { name: `Download progress of ${name}` });
  await page.getByRole('button', { name: `Download ${name}` }).click();
  await expect(downloads.getByText(`Downloading ${name}...`)).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(0);
  await expect(downloads).toBeHidden({ timeout: 60_000 });
  expect(await picked(page)).toEqual({
    size: SIZE,
    sha256: createHash('sha256').update(buffer).digest('hex'),
  });
  await expect(errorToasts(page)).toHaveCount(0);

  // Cancelled while its request is held back: the Worker drops the file; it stays empty.
  await page.route('**/content', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue().catch(() => undefined);
  });
  await page.getByRole('button', { name: `Download ${name}` }).click();
  await page.getByRole('button', { name: `Cancel download of ${name}` }).click();
  await expect(downloads).toBeHidden();
  await expect.poll(async () => (await picked(page)).size).toBe(0);
  await expect(errorToasts(page)).toHaveCount(0);
});
