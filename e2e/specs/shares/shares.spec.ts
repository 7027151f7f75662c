// Share links (issue 29): the owner shares a file (with a password and a note), a secret and a
// typed text; the recipient, in a fresh browser context with no account, opens each: a wrong
// password is refused and the right one opens, the file downloads byte-identical, the secret's
// password is masked until shown, a link used up or revoked reads the one "not available"
// message. The server's database, blobs and log hold none of the content, names, note, password
// or link key.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn } from '../../support/vaults.ts';
import { serverFilesContaining } from '../../support/zero-knowledge.ts';
import { updateRow } from '../../support/tamper.ts';
import { makePdf, makePng, recordWebm } from '../files/fixtures.ts';
import {
  connectCloud,
  fileRow,
  unlimitedUser,
  uploadByPicker,
  uploadLargeFile,
} from '../files/helpers.ts';

test.describe.configure({ timeout: 150_000 });

const UNAVAILABLE =
  'This link is not available. It may have expired, been revoked or used up, or it never existed.';
const CONTRACT = {
  name: 'contract walrusgem.txt',
  mimeType: 'text/plain',
  buffer: Buffer.from('the terms of the walrusgem lease\n'.repeat(300)),
};

interface LinkOptions {
  password?: string;
  note?: string;
  opens?: string;
}

/** Fills the Share dialog open on the page, makes the link and answers it. */
async function makeLink(page: Page, title: string, o: LinkOptions = {}): Promise<string> {
  const dialog = page.getByRole('dialog', { name: title });
  if (o.opens) await dialog.getByLabel('Most opens').fill(o.opens);
  if (o.password) await dialog.getByLabel('Password (optional)').fill(o.password);
  if (o.note) await dialog.getByLabel('Note to the recipient (optional)').fill(o.note);
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = dialog.getByLabel('Link', { exact: true });
  await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}$/, { timeout: 30_000 });
  const url = await link.inputValue();
  if (title === 'Send a text') await expect(dialog).toContainText('cannot be copied again later');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  return url;
}

/** A page in a browser context of its own: no cookie, no account. */
async function stranger(browser: Browser, baseURL: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL, acceptDownloads: true });
  return ctx.newPage();
}

test('a file, a secret and a text, each opened by someone with no account', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const owner = await signedIn(page, request, baseURL!, 'shares');
  await createVault(page, { name: 'Papers', type: 'File vault' });
  await openAndUnlock(page, 'Papers');
  await uploadByPicker(page, [CONTRACT]);
  await fileRow(page, CONTRACT.name)
    .getByRole('button', { name: `Share ${CONTRACT.name}` })
    .click();
  await expect(page.getByRole('dialog', { name: `Share "${CONTRACT.name}"` })).toContainText(
    'deleting the file from the vault does not revoke the link',
  );
  const fileLink = await makeLink(page, `Share "${CONTRACT.name}"`, {
    password: 'pelican walrusgem 42',
    note: 'For the notary walrusgem',
    opens: '2',
  });

  // The recipient: the note shows before the password; a wrong one is refused, the right opens.
  const r = await stranger(browser, baseURL!);
  await r.goto(fileLink);
  await expect(r.getByRole('heading', { name: `A file from ${owner.name}` })).toBeVisible();
  await expect(r.getByText('For the notary walrusgem')).toBeVisible();
  await expect(r.getByText(/2 opens left/)).toBeVisible();
  await r.getByLabel('Password').fill('not the password');
  await r.getByRole('button', { name: 'Unlock' }).click();
  await expect(r.getByRole('alert')).toHaveText('Wrong password. Please try again.');
  await r.getByLabel('Password').fill('pelican walrusgem 42');
  await r.getByRole('button', { name: 'Unlock' }).click();
  await expect(r.getByText(CONTRACT.name)).toBeVisible();
  const [download] = await Promise.all([
    r.waitForEvent('download'),
    r.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(CONTRACT.name);
  expect(fs.readFileSync(await download.path()).equals(CONTRACT.buffer)).toBe(true);
  // A link without its fragment opens nothing.
  await r.goto(fileLink.split('#')[0]!);
  await expect(r.getByRole('alert')).toContainText('the part after "#" is missing');

  // A secret, opened once: then the link is used up.
  await page.goto('/dashboard');
  await createVault(page, { name: 'Keys', type: 'Secrets vault' });
  await openAndUnlock(page, 'Keys');
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const add = page.getByRole('dialog', { name: 'Add Secret' });
  await add.getByLabel('Title').fill('Harbour wifi');
  await add.getByLabel('Username').fill('guest-walrusgem');
  await add.getByLabel('Password', { exact: true }).fill('s3cret-walrusgem-pass');
  await add.getByRole('button', { name: 'Add Secret' }).click();
  await expect(add).toBeHidden({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Share Harbour wifi' }).click();
  const secretLink = await makeLink(page, 'Share "Harbour wifi"', { opens: '1' });
  await r.goto(secretLink);
  await expect(r.getByRole('heading', { name: `A secret from ${owner.name}` })).toBeVisible();
  await r.getByRole('button', { name: 'Show the secret' }).click();
  const card = r.getByRole('region', { name: 'Harbour wifi' });
  await expect(card).toContainText('guest-walrusgem');
  await expect(card).not.toContainText('s3cret-walrusgem-pass');
  await card.getByRole('button', { name: 'Show Password' }).click();
  await expect(card).toContainText('s3cret-walrusgem-pass');
  await r.reload();
  await expect(r.getByRole('alert')).toHaveText(UNAVAILABLE);

  // A text sent from the dashboard, then revoked: the same message as an unknown link.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Shared links and Send a text' }).click();
  await page.getByRole('button', { name: 'Send a text' }).click();
  await page
    .getByRole('dialog', { name: 'Send a text' })
    .getByLabel('Text')
    .fill('the gate code is 4471 walrusgem');
  const textLink = await makeLink(page, 'Send a text');
  await r.goto(textLink);
  await r.getByRole('button', { name: 'Show the text' }).click();
  await expect(r.getByText('the gate code is 4471 walrusgem')).toBeVisible();
  const list = page.getByRole('list', { name: 'Shared links' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await list
    .getByRole('listitem', { name: 'Text link, Active' })
    .getByRole('button', { name: 'Revoke this link' })
    .click();
  await expect(page.getByText('The link was revoked: it no longer opens.')).toBeVisible();
  await r.reload(); // the same address: goto would not load it again
  await expect(r.getByRole('alert')).toHaveText(UNAVAILABLE);
  const unknown = `${textLink.split('/s/')[0]}/s/AAAAAAAAAAAAAAAAAAAAAA#${textLink.split('#')[1]}`;
  await r.goto(unknown);
  await expect(r.getByRole('alert')).toHaveText(UNAVAILABLE);
  await r.context().close();

  // Zero knowledge: no content, name, note, password or link key on the server side.
  const keys = [fileLink, secretLink, textLink].map((u) => u.split('#')[1]!);
  expect(
    serverFilesContaining([
      'walrusgem',
      'pelican',
      's3cret-walrusgem-pass',
      'gate code',
      'Harbour wifi',
      ...keys,
    ]),
  ).toEqual([]);
});

test('from a Dropbox vault: a picture previewed and saved, a large file streamed to disk with the save dialog and without; an expired link is not available', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  await unlimitedUser(page, request, baseURL!, 'shares-dropbox');
  await connectCloud(page, 'Dropbox');
  await page.goto('/dashboard');
  await createVault(page, { name: 'Album', type: 'File vault', provider: 'Dropbox' });
  await openAndUnlock(page, 'Album');
  const picture = {
    name: 'harbour walrusgem.png',
    mimeType: 'image/png',
    buffer: makePng(160, 90, [20, 110, 190]),
  };
  await uploadByPicker(page, [picture]);
  await fileRow(page, picture.name)
    .getByRole('button', { name: `Share ${picture.name}` })
    .click();
  const url = await makeLink(page, `Share "${picture.name}"`);

  // The copy the link holds came from Dropbox through this browser, re-encrypted for the link.
  const r = await stranger(browser, baseURL!);
  await r.goto(url);
  await r.getByRole('button', { name: 'Preview' }).click();
  await expect(
    r.getByRole('region', { name: `Content of ${picture.name}` }).getByRole('img'),
  ).toBeVisible();
  const [download] = await Promise.all([
    r.waitForEvent('download'),
    r.getByRole('button', { name: `Save "${picture.name}"` }).click(),
  ]);
  expect(fs.readFileSync(await download.path()).equals(picture.buffer)).toBe(true);

  // A file of 60 MiB goes straight to the file the recipient picks, streamed as it decrypts (the
  // save dialog is stubbed with a writable that keeps the bytes for the check).
  const big = await uploadLargeFile(page, 'survey walrusgem.bin', 60 * 1024 * 1024);
  await fileRow(page, 'survey walrusgem.bin')
    .getByRole('button', { name: 'Share survey walrusgem.bin' })
    .click();
  const bigUrl = await makeLink(page, 'Share "survey walrusgem.bin"');
  const d = await stranger(browser, baseURL!);
  await d.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    const parts: Uint8Array[] = [];
    w.__saved = parts;
    w.showSaveFilePicker = () =>
      Promise.resolve({
        createWritable: () =>
          Promise.resolve(
            new WritableStream<Uint8Array>({
              write: (chunk) => void parts.push(chunk.slice()),
              close: () => void (w.__closed = true),
            }),
          ),
      });
  });
  await d.goto(bigUrl);
  await d.getByRole('button', { name: 'Download' }).click();
  await expect(d.getByText('Downloaded "survey walrusgem.bin".')).toBeVisible({ timeout: 60_000 });
  const digest = await d.evaluate(async () => {
    const w = window as unknown as { __saved: Uint8Array<ArrayBuffer>[]; __closed?: boolean };
    if (!w.__closed) return 'not closed';
    const bytes = await new Blob(w.__saved).arrayBuffer();
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
  });
  expect(digest).toBe(createHash('sha256').update(big).digest('hex'));
  await d.context().close();

  // A browser without the save dialog (Firefox, Safari): the Service Worker streams it to the
  // browser's downloads as it decrypts, never as one Blob.
  const f = await stranger(browser, baseURL!);
  await f.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await f.goto(bigUrl);
  const [streamed] = await Promise.all([
    f.waitForEvent('download', { timeout: 60_000 }),
    f.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(streamed.url()).toMatch(/\/__media\/[0-9a-f-]{36}$/);
  expect(streamed.suggestedFilename()).toBe('survey walrusgem.bin');
  const saved = fs.readFileSync(await streamed.path());
  expect(createHash('sha256').update(saved).digest('hex')).toBe(
    createHash('sha256').update(big).digest('hex'),
  );
  await expect(f.getByText('Downloaded "survey walrusgem.bin".')).toBeVisible();
  await f.context().close();

  // Past its expiry (the server's clock moved on: here, its row), the link reads as any other.
  const id = /\/s\/([A-Za-z0-9_-]{22})#/.exec(url)![1]!;
  updateRow('share_links', id, { expires_at: new Date(Date.now() - 60_000).toISOString() });
  await r.reload();
  await expect(r.getByRole('alert')).toHaveText(UNAVAILABLE);
  await r.context().close();
  expect(serverFilesContaining(['walrusgem', url.split('#')[1]!])).toEqual([]);
});

test('the recipient previews a PDF and a video, seeks in it, and a link whose bytes the server changed or cut shows nothing', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  await signedIn(page, request, baseURL!, 'shares-previews');
  await createVault(page, { name: 'Brochures', type: 'File vault' });
  await openAndUnlock(page, 'Brochures');
  const webm = await recordWebm(page, 2000);
  const pdf = {
    name: 'brochure walrusgem.pdf',
    mimeType: 'application/pdf',
    buffer: makePdf(['First page', 'Second page']),
  };
  const clip = { name: 'clip walrusgem.webm', mimeType: 'video/webm', buffer: webm };
  await uploadByPicker(page, [pdf, clip]);
  const share = async (name: string) => {
    await fileRow(page, name)
      .getByRole('button', { name: `Share ${name}` })
      .click();
    return makeLink(page, `Share "${name}"`);
  };
  const pdfLink = await share(pdf.name);
  const clipLink = await share(clip.name);

  const r = await stranger(browser, baseURL!);
  await r.goto(pdfLink);
  await r.getByRole('button', { name: 'Preview' }).click();
  const pdfView = r.getByRole('region', { name: `Content of ${pdf.name}` });
  await expect(pdfView.getByLabel('PDF page 1 of 2')).toBeVisible({ timeout: 20_000 });
  await pdfView.getByRole('button', { name: 'Next page' }).click();
  await expect(pdfView.getByText('Page 2 of 2')).toBeVisible();

  await r.goto(clipLink);
  await r.getByRole('button', { name: 'Preview' }).click();
  const video = r.getByRole('region', { name: `Content of ${clip.name}` }).locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(160);
  // Seeking: a WebM from MediaRecorder has no duration until it is read to its end.
  const seeked = await video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<number>((resolve) => {
        v.pause();
        v.addEventListener('seeked', () => resolve(v.currentTime), { once: true });
        v.currentTime = 1.2;
      }),
  );
  expect(seeked).toBeGreaterThan(1);

  // The server answers other bytes: one flipped, then the content cut short. Nothing is shown.
  for (const change of ['flip', 'cut'] as const) {
    await r.route('**/api/s/*/content', async (route) => {
      const res = await route.fetch();
      const body = Buffer.from(await res.body());
      const changed =
        change === 'flip'
          ? Buffer.concat([
              body.subarray(0, 200),
              Buffer.from([body[200]! ^ 1]),
              body.subarray(201),
            ])
          : body.subarray(0, body.length - 300);
      await route.fulfill({ response: res, body: changed });
    });
    await r.goto(pdfLink);
    await r.getByRole('button', { name: 'Preview' }).click();
    await expect(r.getByRole('alert')).toHaveText(
      "This link's content does not match what was shared: it was changed or cut on the server. Nothing is shown.",
    );
    await expect(r.getByRole('region', { name: `Content of ${pdf.name}` })).toHaveCount(0);
    await r.unrouteAll();
  }
  await r.context().close();
});
