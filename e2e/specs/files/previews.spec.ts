// The previewer: PDF (pdf.js, page navigation), image, text, audio, video, an SVG whose script
// must not run, and HTML, which gets no preview at all.
import { expect, test } from '@playwright/test';
import { createVault, openAndUnlock, signedIn } from '../../support/vaults.ts';
import { EVIL_SVG, makePdf, makePng, makeWav } from './fixtures.ts';
import { openPreview, uploadByPicker, type Fixture } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

test('each preview type; SVG and HTML never run in the app', async ({ page, request, baseURL }) => {
  await signedIn(page, request, baseURL!, 'previews');
  await createVault(page, { name: 'Media', type: 'File vault' });
  await openAndUnlock(page, 'Media');

  // A short WebM recorded in the browser itself (no video tools needed on the machine).
  const webm = await page.evaluate(async () => {
    const c = document.createElement('canvas');
    c.width = 160;
    c.height = 120;
    const ctx = c.getContext('2d')!;
    const rec = new MediaRecorder(c.captureStream(25), { mimeType: 'video/webm' });
    const parts: Blob[] = [];
    rec.ondataavailable = (e) => parts.push(e.data);
    let i = 0;
    const timer = setInterval(() => {
      ctx.fillStyle = `hsl(${(i += 20) % 360} 80% 50%)`;
      ctx.fillRect(0, 0, 160, 120);
    }, 40);
    rec.start();
    await new Promise((r) => setTimeout(r, 1200));
    const stopped = new Promise((r) => (rec.onstop = r));
    rec.stop();
    await stopped;
    clearInterval(timer);
    return Array.from(new Uint8Array(await new Blob(parts).arrayBuffer()));
  });

  const files: Fixture[] = [
    {
      name: 'brochure.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf(['First page', 'Second page']),
    },
    { name: 'swatch.png', mimeType: 'image/png', buffer: makePng(40, 30, [200, 30, 90]) },
    {
      name: 'readme.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Line one\n  indented two\n'),
    },
    { name: 'tone.wav', mimeType: 'audio/wav', buffer: makeWav(1) },
    { name: 'clip.webm', mimeType: 'video/webm', buffer: Buffer.from(webm) },
    { name: 'badge.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(EVIL_SVG) },
    {
      name: 'page.html',
      mimeType: 'text/html',
      buffer: Buffer.from('<script>top.document.title="html-ran"</script><p>hi</p>'),
    },
  ];
  await uploadByPicker(page, files);
  const title = await page.title();

  // PDF, with the loading text while the ciphertext is held back.
  await page.route(
    '**/content',
    async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    },
    { times: 1 },
  );
  let dialog = await openPreview(page, 'brochure.pdf');
  await expect(dialog.getByText('Decrypting and loading file...')).toBeVisible();
  await expect(dialog.getByLabel('PDF page 1 of 2')).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByText('Page 1 of 2')).toBeVisible();
  const width = await dialog.locator('canvas').evaluate((c: HTMLCanvasElement) => c.width);
  expect(width).toBe(918); // 612 pt at scale 1.5
  await dialog.getByRole('button', { name: 'Next page' }).click();
  await expect(dialog.getByText('Page 2 of 2')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  dialog = await openPreview(page, 'swatch.png');
  const img = dialog.getByRole('img', { name: 'swatch.png' });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(40);
  await page.keyboard.press('Escape');

  dialog = await openPreview(page, 'readme.txt');
  await expect(dialog.locator('pre')).toHaveText('Line one\n  indented two\n');
  await page.keyboard.press('Escape');

  dialog = await openPreview(page, 'tone.wav');
  const audio = dialog.locator('audio');
  await expect(audio).toHaveAttribute('controls', '');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(0.9);
  await page.keyboard.press('Escape');

  dialog = await openPreview(page, 'clip.webm');
  const video = dialog.locator('video');
  await expect(video).toHaveAttribute('controls', '');
  await expect(video).toHaveAttribute('autoplay', '');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(160);
  await page.keyboard.press('Escape');

  // The SVG is shown as an image; its script and onload never run.
  dialog = await openPreview(page, 'badge.svg');
  const svg = dialog.getByRole('img', { name: 'badge.svg' });
  await expect.poll(() => svg.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(80);
  await page.waitForTimeout(500);
  expect(await page.title()).toBe(title);
  expect(await page.evaluate(() => (window as { __svgRan?: number }).__svgRan)).toBeUndefined();
  await page.keyboard.press('Escape');

  // HTML: no preview, only a download.
  dialog = await openPreview(page, 'page.html');
  await expect(dialog.getByText('No preview available for this file type.')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download', exact: true }).last().click(),
  ]);
  expect(download.suggestedFilename()).toBe('page.html');
  expect(await page.title()).toBe(title);
});
