// The previewer: PDF (pdf.js, page navigation), image, text, audio, video, an SVG whose script
// must not run, HTML, which gets no preview at all, Markdown (its HTML never runs, its remote
// image never loads), CSV as a table, an Office file (download only), and the spec's errors for a
// file that is no PDF and for damaged ciphertext.
import { expect, test } from '@playwright/test';
import { createVault, openAndUnlock, signedIn } from '../../support/vaults.ts';
import { EVIL_SVG, makePdf, makePng, makeWav, recordWebm } from './fixtures.ts';
import { openPreview, uploadByPicker, type Fixture } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

// 40 s of 8 kHz mono: about 640 KB, three vf1 chunks.
const WAV = makeWav(40);

test('each preview type; SVG and HTML never run in the app', async ({ page, request, baseURL }) => {
  await signedIn(page, request, baseURL!, 'previews');
  await createVault(page, { name: 'Media', type: 'File vault' });
  await openAndUnlock(page, 'Media');

  const webm = await recordWebm(page, 1200);

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
    { name: 'tone.wav', mimeType: 'audio/wav', buffer: WAV },
    { name: 'clip.webm', mimeType: 'video/webm', buffer: webm },
    { name: 'badge.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(EVIL_SVG) },
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a PDF at all') },
    {
      name: 'page.html',
      mimeType: 'text/html',
      buffer: Buffer.from('<script>top.document.title="html-ran"</script><p>hi</p>'),
    },
    {
      name: 'notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(
        '# Plan\n\n<img src="x" onerror="top.document.title=\'md-ran\'">\n\n' +
          '![pixel](https://tracker.invalid/p.png) [docs](https://example.com/)\n',
      ),
    },
    {
      name: 'people.csv',
      mimeType: 'application/vnd.ms-excel', // what Windows says of a .csv
      buffer: Buffer.from('name,city\n"Smith, Ann",Paris\n'),
    },
    { name: 'budget.xlsx', mimeType: '', buffer: Buffer.from('PK\x03\x04') },
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

  // Video and audio play through the media Service Worker, which has the page decrypt only the
  // ciphertext ranges the player asks for.
  const ranges: string[] = [];
  page.on('request', (r) => {
    const range = r.headers()['range'];
    if (r.url().endsWith('/content') && range) ranges.push(range);
  });
  dialog = await openPreview(page, 'tone.wav');
  const audio = dialog.locator('audio');
  await expect(audio).toHaveAttribute('src', /^\/__media\//);
  await expect(audio).toHaveAttribute('controls', '');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(39);
  // A range across a chunk boundary (262,144) comes back byte-identical, decrypted from only the
  // chunks covering it.
  const src = (await audio.getAttribute('src'))!;
  ranges.length = 0;
  const slice = await page.evaluate(async (url) => {
    const res = await fetch(url, { headers: { Range: 'bytes=262100-262199' } });
    return {
      status: res.status,
      range: res.headers.get('content-range'),
      bytes: [...new Uint8Array(await res.arrayBuffer())],
    };
  }, src);
  expect(slice.status).toBe(206);
  expect(slice.range).toBe(`bytes 262100-262199/${WAV.length}`);
  expect(Buffer.from(slice.bytes).equals(WAV.subarray(262100, 262200))).toBe(true);
  expect(ranges).toEqual(['bytes=72-524391']); // chunks 0 and 1 only (2 × 262,160 bytes)
  await page.keyboard.press('Escape');

  ranges.length = 0;
  dialog = await openPreview(page, 'clip.webm');
  const video = dialog.locator('video');
  await expect(video).toHaveAttribute('src', /^\/__media\//);
  await expect(video).toHaveAttribute('controls', '');
  await expect(video).toHaveAttribute('autoplay', '');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(160);
  expect(ranges).toContain('bytes=0-71'); // the vf1 header, then the covering chunks
  expect(ranges.some((r) => /^bytes=72-\d+$/.test(r))).toBe(true);
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
  await page.keyboard.press('Escape');

  // Markdown: rendered, its HTML as text, its image never requested.
  const remote: string[] = [];
  page.on('request', (r) => r.url().includes('tracker.invalid') && remote.push(r.url()));
  dialog = await openPreview(page, 'notes.md');
  await expect(dialog.getByRole('heading', { name: 'Plan' })).toBeVisible();
  await expect(dialog.getByText('<img src="x" onerror=')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'pixel' })).toHaveAttribute(
    'title',
    'Image not loaded',
  );
  await expect(dialog.getByRole('link', { name: 'docs' })).toHaveAttribute(
    'rel',
    'noopener noreferrer',
  );
  expect(await dialog.locator('img').count()).toBe(0);
  await dialog.getByRole('button', { name: 'Show source' }).click();
  await expect(dialog.locator('pre')).toContainText('# Plan');
  expect(remote).toEqual([]);
  expect(await page.title()).toBe(title);
  await page.keyboard.press('Escape');

  dialog = await openPreview(page, 'people.csv');
  await expect(dialog.getByRole('columnheader', { name: 'city' })).toBeVisible();
  await expect(dialog.getByRole('cell', { name: 'Smith, Ann' })).toBeVisible();
  await page.keyboard.press('Escape');

  dialog = await openPreview(page, 'budget.xlsx');
  await expect(dialog.getByText('No preview available for this file type.')).toBeVisible();
  await expect(dialog.getByText('Office files are not opened in the browser')).toBeVisible();
  await page.keyboard.press('Escape');

  // The spec's preview errors: a file that is no PDF, and ciphertext damaged on the way.
  dialog = await openPreview(page, 'broken.pdf');
  await expect(dialog.getByText('PDF data is empty or invalid.')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await page.route(
    '**/content',
    async (route) => {
      const res = await route.fetch();
      const body = await res.body();
      body.writeUInt8(body.readUInt8(body.length - 1) ^ 1, body.length - 1); // one bit of the last tag
      await route.fulfill({ response: res, body });
    },
    { times: 1 },
  );
  dialog = await openPreview(page, 'readme.txt');
  await expect(dialog.getByText('Failed to load file content.')).toBeVisible({ timeout: 20_000 });
  await expect(dialog.locator('pre')).toHaveCount(0);
});
