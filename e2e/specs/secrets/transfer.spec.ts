// Import and export of a secrets vault (issue 20): every sample format imported into one vault
// through the preview; an encrypted export imported into a second vault gives the same items; a
// malformed file and one over 50 MB are refused with their messages, and nothing is stored.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, vaultCard } from '../../support/vaults.ts';

test.describe.configure({ timeout: 180_000 });

const SAMPLES = path.resolve(import.meta.dirname, '../../../apps/web/src/secrets/transfer/samples');
const KDBX_PASSWORD = 'pässwörd 🔑';

interface Sample {
  name: string;
  buffer: Buffer;
  format: string;
  /** The preview's counts per type, as it shows them. */
  counts: Record<string, number>;
  /** A title that, searched, shows the item. */
  title: string;
  password?: string;
}

const file = (name: string) => readFileSync(path.join(SAMPLES, name));
const pux = () =>
  Buffer.from(
    zipSync(
      Object.fromEntries(
        readdirSync(path.join(SAMPLES, '1pux')).map((f) => [
          f,
          new Uint8Array(readFileSync(path.join(SAMPLES, '1pux', f))),
        ]),
      ),
    ),
  );

const samples = (): Sample[] => [
  {
    name: 'bitwarden.json',
    buffer: file('bitwarden.json'),
    format: 'Bitwarden JSON',
    counts: { Logins: 2, 'Payment cards': 1, 'Secure notes': 1, Identities: 1, 'SSH keys': 1 },
    title: 'Passport',
  },
  {
    name: 'bitwarden.csv',
    buffer: file('bitwarden.csv'),
    format: 'Bitwarden CSV',
    counts: { Logins: 3, 'Secure notes': 1 },
    title: 'Bank',
  },
  {
    name: 'export.1pux',
    buffer: pux(),
    format: '1Password 1PUX',
    counts: {
      Logins: 1,
      'Payment cards': 1,
      'Secure notes': 2,
      Identities: 1,
      'SSH keys': 1,
      'API keys': 1,
    },
    title: 'Stripe',
  },
  {
    name: '1password.csv',
    buffer: file('1password.csv'),
    format: '1Password CSV',
    counts: { Logins: 2 },
    title: 'Router',
  },
  {
    name: 'keepass.xml',
    buffer: file('keepass.xml'),
    format: 'KeePass 2 XML',
    counts: { Logins: 2, 'Secure notes': 1 },
    title: 'Build server',
  },
  {
    name: 'keepass.kdbx',
    buffer: file('keepass.kdbx'),
    format: 'KeePass KDBX',
    counts: { Logins: 2, 'Secure notes': 1 },
    title: 'Build server',
    password: KDBX_PASSWORD,
  },
  {
    name: 'chrome.csv',
    buffer: file('chrome.csv'),
    format: 'Chrome passwords CSV',
    counts: { Logins: 4 },
    title: 'Ünïcode Bank',
  },
  {
    name: 'firefox.csv',
    buffer: file('firefox.csv'),
    format: 'Firefox passwords CSV',
    counts: { Logins: 3 },
    title: 'intranet.example',
  },
  {
    name: 'safari.csv',
    buffer: file('safari.csv'),
    format: 'Safari passwords CSV',
    counts: { Logins: 2 },
    title: 'Example (alice@example.com)',
  },
  {
    name: 'protonpass.json',
    buffer: file('protonpass.json'),
    format: 'Proton Pass JSON',
    counts: { Logins: 1, 'Payment cards': 1, 'Secure notes': 1, Identities: 1, 'SSH keys': 1 },
    title: 'Me',
  },
  {
    name: 'lastpass.csv',
    buffer: file('lastpass.csv'),
    format: 'LastPass CSV',
    counts: { Logins: 4, 'Payment cards': 1, 'Secure notes': 2, Identities: 1 },
    title: 'Home address',
  },
  {
    name: 'nordpass.csv',
    buffer: file('nordpass.csv'),
    format: 'NordPass CSV',
    counts: { Logins: 3, 'Payment cards': 1, 'Secure notes': 1, Identities: 1 },
    title: 'Wi-Fi code',
  },
  {
    name: 'enpass.json',
    buffer: file('enpass.json'),
    format: 'Enpass JSON',
    counts: { Logins: 2, 'Payment cards': 1, 'Secure notes': 1, Identities: 1 },
    title: 'Ana Lima',
  },
  {
    name: 'keepassxc.csv',
    buffer: file('keepassxc.csv'),
    format: 'KeePassXC CSV',
    counts: { Logins: 3 },
    title: 'Steam',
  },
  {
    name: 'roboform.csv',
    buffer: file('roboform.csv'),
    format: 'RoboForm CSV',
    counts: { Logins: 3, 'Secure notes': 1 },
    title: 'Wi-Fi',
  },
  {
    name: 'keeper.csv',
    buffer: file('keeper.csv'),
    format: 'Keeper CSV',
    counts: { Logins: 3, 'Secure notes': 1 },
    title: 'Bänk',
  },
  {
    name: 'credentials.csv',
    buffer: file('dashlane/credentials.csv'),
    format: 'Dashlane CSV (one file of its ZIP)',
    counts: { Logins: 3 },
    title: 'Ünïcode Bänk',
  },
  {
    name: 'keeper.json',
    buffer: file('keeper.json'),
    format: 'Keeper JSON',
    counts: { Logins: 2, 'Payment cards': 1, 'Secure notes': 1, Identities: 1, 'SSH keys': 1 },
    title: 'Server key',
  },
  {
    name: 'dashlane.json',
    buffer: file('dashlane.json'),
    format: 'Dashlane JSON',
    counts: { Logins: 3, 'Payment cards': 1, 'Secure notes': 3, Identities: 6 },
    title: 'Passport: Ana Maria Lima',
  },
  {
    name: 'enpass.csv',
    buffer: file('enpass.csv'),
    format: 'Enpass CSV',
    counts: { Logins: 4, 'Payment cards': 1, 'Secure notes': 1 },
    title: 'Short',
  },
  {
    // Apple Passwords writes the Safari form.
    name: 'Passwords.csv',
    buffer: file('apple-passwords.csv'),
    format: 'Safari passwords CSV',
    counts: { Logins: 4 },
    title: 'Bänk ✓',
  },
];

const card = (page: Page, title: string) =>
  page.getByRole('article', { name: title, exact: true }).first();

async function openImport(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import secrets' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Imports one file through the dialog, checking the detected format and the preview's counts. */
async function importFile(
  page: Page,
  f: {
    name: string;
    buffer: Buffer;
    format?: string;
    counts?: Record<string, number>;
    password?: string;
  },
) {
  const dialog = await openImport(page);
  await dialog.getByLabel('File to import').setInputFiles({
    name: f.name,
    mimeType: 'application/octet-stream',
    buffer: f.buffer,
  });
  if (f.format) await expect(dialog.getByLabel('Format')).toHaveValue(/./);
  if (f.format)
    await expect(dialog.getByLabel('Format').locator('option:checked')).toHaveText(f.format);
  if (f.password) await dialog.getByLabel('File password', { exact: true }).fill(f.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const counts = dialog.getByRole('list', { name: 'Items per type' });
  await expect(counts).toBeVisible({ timeout: 30_000 });
  if (f.counts) {
    const expected = Object.entries(f.counts).map(([type, n]) => `${type}${n}`);
    await expect(counts.getByRole('listitem')).toHaveText(expected);
  }
  // Items already in the vault (the KeePass samples hold the same entries) are imported too here.
  const skip = dialog.getByLabel('Leave the duplicates out');
  if (await skip.isVisible()) await skip.uncheck();
  await dialog.getByRole('button', { name: /^Import \d+ items$/ }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
}

async function searchFinds(page: Page, title: string) {
  const search = page.getByRole('searchbox', { name: 'Search secrets' });
  await search.fill(title);
  await expect(card(page, title)).toBeVisible();
  await search.fill('');
}

test('imports every sample format into one vault through the preview; each is searchable', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'import');
  await createVault(page, { name: 'Imported', type: 'Secrets vault' });
  await openAndUnlock(page, 'Imported');
  let total = 0;
  for (const s of samples()) {
    await importFile(page, s);
    total += Object.values(s.counts).reduce((a, b) => a + b, 0);
    await expect(page.getByText(`${total} encrypted secrets`)).toBeVisible({ timeout: 30_000 });
    await searchFinds(page, s.title);
  }
  // The manifest covers every imported item: no integrity warning.
  await page.reload();
  await expect(page.getByText(/not in this vault's manifest/)).toHaveCount(0);
});

test('an encrypted export imports into a second vault with the same items', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  await signedIn(page, request, baseURL!, 'export');
  await createVault(page, { name: 'Source', type: 'Secrets vault' });
  await openAndUnlock(page, 'Source');
  await importFile(page, { name: 'bitwarden.json', buffer: file('bitwarden.json') });
  await expect(page.getByText('6 encrypted secrets')).toBeVisible({ timeout: 30_000 });
  const before = await cardsOf(page);

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export secrets' });
  await expect(dialog.getByRole('radio', { name: /Encrypted export/ })).toBeChecked();
  await dialog.getByLabel('Export password', { exact: true }).fill('short');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByText('Use at least 8 characters.')).toBeVisible();
  await dialog.getByLabel('Export password', { exact: true }).fill('export-walrus-42');
  await dialog.getByLabel('Export password again', { exact: true }).fill('export-walrus-42');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^sealvault-Source-\d{4}-\d{2}-\d{2}\.json$/);
  const saved = testInfo.outputPath('export.json');
  await download.saveAs(saved);
  const exported = readFileSync(saved, 'utf8');
  expect(exported).toContain('"format": "sealvault-export"');
  expect(exported).not.toContain('Passport');

  // The plain export asks for the vault password and refuses a wrong one.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await dialog.getByRole('radio', { name: /Plain Bitwarden CSV/ }).check();
  await expect(dialog.getByRole('note')).toContainText('anyone who gets it can read');
  await expect(dialog.getByText(/cannot hold payment cards, identities or SSH keys/)).toBeVisible();
  await dialog.getByLabel('Vault password', { exact: true }).fill('not-the-password');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByText('Invalid password')).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Free has one secrets vault: the source goes before the copy is made.
  await page.getByRole('link', { name: 'Back to Dashboard' }).first().click();
  await vaultCard(page, 'Source').getByRole('button', { name: 'Delete vault Source' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete vault' });
  await confirm.getByRole('button', { name: 'Delete vault' }).click();
  await expect(confirm).toBeHidden();
  await createVault(page, { name: 'Copy', type: 'Secrets vault' });
  await openAndUnlock(page, 'Copy');
  await importFile(page, {
    name: 'export.json',
    buffer: Buffer.from(exported),
    format: 'SealVault encrypted export',
    password: 'export-walrus-42',
  });
  await expect(page.getByText('6 encrypted secrets')).toBeVisible({ timeout: 30_000 });
  expect(await cardsOf(page)).toEqual(before);
});

test('a malformed file names the entry at fault, a file over 50 MB is refused; nothing is stored', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  await signedIn(page, request, baseURL!, 'badimport');
  await createVault(page, { name: 'Careful', type: 'Secrets vault' });
  await openAndUnlock(page, 'Careful');
  const dialog = await openImport(page);
  await dialog.getByLabel('File to import').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      '{\n  "encrypted": false,\n  "items": [\n    { "type": 1, "name": "A",\n  ]\n}\n',
    ),
  });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/line 5/);

  // Playwright takes buffers up to 50 MB only: the big one goes through a file.
  const big = testInfo.outputPath('big.csv');
  writeFileSync(big, Buffer.alloc(50 * 1024 * 1024 + 1, 0x61));
  await dialog.getByLabel('File to import').setInputFiles(big);
  await expect(dialog.getByRole('alert')).toHaveText(
    'This file is larger than 50 MB. Split it and import the parts.',
  );
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('0 encrypted secrets')).toBeVisible();
});

/** Each card's title and username, in the list's order (by title). */
async function cardsOf(page: Page): Promise<string[]> {
  const cards = page.getByRole('article');
  await expect(cards.first()).toBeVisible();
  return cards.evaluateAll((els) =>
    els.map((el) => {
      const dt = [...el.querySelectorAll('dt')].find((d) => d.textContent.trim() === 'Username');
      const username = dt?.nextElementSibling?.firstElementChild?.textContent ?? '';
      return `${el.getAttribute('aria-label')} | ${username}`;
    }),
  );
}
