// Secrets vaults keep their items in the provider they name (issue 26 part 2, ADR 0008): on This
// browser, Dropbox, Google Drive and OneDrive (emulated) a vault's items are segments in its
// folder, its manifest on our server pins them, and our server holds none of them (the item
// canaries are nowhere in its files). Add, edit, delete, search, import, export and rotate work
// as on our server; a second browser reads the same vault from the provider; two browsers editing
// different items at once both land; a vault made when items stayed on our server moves them on
// its next unlock, and a move cut halfway is finished by the next one.
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signInWithForm, type TestUser } from '../../support/accounts.ts';
import { emulatorControl } from '../../support/constants.ts';
import { rowOf, rowsWhere, updateRow, deleteRow, storedManifest } from '../../support/tamper.ts';
import {
  changePassword,
  createVault,
  openAndUnlock,
  signedIn,
  VAULT_PASSWORD,
} from '../../support/vaults.ts';
import { serverFilesContaining } from '../../support/zero-knowledge.ts';
import { connectCloud } from '../files/helpers.ts';

test.describe.configure({ timeout: 120_000 });

type Provider = { id: 'local' | 'dropbox' | 'googledrive' | 'onedrive'; name: string };
const LOCAL: Provider = { id: 'local', name: 'This browser' };
const DROPBOX: Provider = { id: 'dropbox', name: 'Dropbox' };
const DRIVE: Provider = { id: 'googledrive', name: 'Google Drive' };
const ONEDRIVE: Provider = { id: 'onedrive', name: 'OneDrive' };

const NEW_PASSWORD = 'segment-rotation-passphrase-9';
const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const vaultIdOf = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

async function addSecret(page: Page, title: string, password: string) {
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Secret' });
  await dialog.getByLabel('Title').fill(title);
  await dialog
    .getByLabel('Username')
    .fill(`${title.toLowerCase().replace(/\W+/g, '.')}@example.test`);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Add Secret' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(card(page, title)).toBeVisible();
}

async function editPassword(page: Page, title: string, password: string) {
  await card(page, title)
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
}

async function passwordOf(page: Page, title: string): Promise<string> {
  const c = card(page, title);
  await c.getByRole('button', { name: 'Show password' }).click();
  const text = (await c.getByTestId('secret-password').textContent()) ?? '';
  await c.getByRole('button', { name: 'Hide password' }).click();
  return text;
}

/** The segment blobs in the vault's folder, as the provider holds them. */
async function segmentsInProvider(page: Page, p: Provider, vaultId: string): Promise<string[]> {
  if (p.id === 'local')
    return page.evaluate(async (id) => {
      const root = await navigator.storage.getDirectory();
      const dir = await (await root.getDirectoryHandle('vaults')).getDirectoryHandle(id);
      const names: string[] = [];
      for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
        names.push(name);
      return names.filter((n) => n.startsWith('seg-'));
    }, vaultId);
  const folder = String(rowOf('vaults', vaultId)!.storage_folder);
  if (p.id === 'dropbox') {
    const res = (await (await fetch(`${emulatorControl.dropbox()}/files`)).json()) as {
      files: { path_lower: string }[];
    };
    const prefix = `${folder.toLowerCase()}/seg-`;
    return res.files.filter((f) => f.path_lower.startsWith(prefix)).map((f) => f.path_lower);
  }
  if (p.id === 'onedrive') {
    const od = (await (await fetch(`${emulatorControl.onedrive()}/items`)).json()) as {
      items: { id: string; name: string; folder?: boolean; path: string }[];
    };
    // The vault records its folder's item id; its segments are the items under that folder.
    const dir = od.items.find((i) => i.id === folder)!;
    return od.items
      .filter((i) => i.name.startsWith('seg-') && i.path.startsWith(`${dir.path}/`))
      .map((i) => i.name);
  }
  const res = (await (await fetch(`${emulatorControl.googledrive()}/files`)).json()) as {
    files: { name: string; parents?: string[] }[];
  };
  return res.files
    .filter((f) => f.name.startsWith('seg-') && f.parents?.includes(folder))
    .map((f) => f.name);
}

/** Pins of the vault's manifest on our server (ADR 0008). */
const pinned = (vaultId: string) =>
  (storedManifest(vaultId)?.manifest as unknown as { segments?: [string, string][] }).segments;

/** Changes the vault's password and rotates its keys, waiting until it is done. */
async function rotate(page: Page, current: string, next: string) {
  const dialog = await changePassword(page, current, next);
  await expect(dialog.getByText(/the keys were rotated/)).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();
}

/** The same user in a second browser (its own storage): signed in, the cloud connected. */
async function secondBrowser(browser: Browser, user: TestUser, p: Provider): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/auth');
  await signInWithForm(page, user);
  await expect(page).toHaveURL(/\/dashboard/);
  await connectCloud(page, p.name);
  await page.goto('/dashboard');
  return page;
}

async function newVaultOn(page: Page, p: Provider, name: string) {
  if (p.id !== 'local') {
    await connectCloud(page, p.name);
    await page.goto('/dashboard');
  }
  await createVault(page, { name, type: 'Secrets vault', provider: p.name as never });
  await openAndUnlock(page, name);
  await expect(page.getByText('0 encrypted secrets')).toBeVisible({ timeout: 15_000 });
}

for (const p of [LOCAL, DROPBOX, DRIVE, ONEDRIVE]) {
  test(`a secrets vault on ${p.name} keeps its items there, and our server none of them`, async ({
    page,
    request,
    baseURL,
    browser,
  }) => {
    const user = await signedIn(page, request, baseURL!, `seg-${p.id}`);
    const name = `Keys ${p.id} ${Date.now().toString(36)}`;
    const canary = (n: number) => `canary-${p.id}-${n}-${Date.now().toString(36)}`;
    const secrets = [canary(1), canary(2), canary(3)];
    await newVaultOn(page, p, name);
    const vaultId = vaultIdOf(page);

    await addSecret(page, 'Harbour office', secrets[0]!);
    await addSecret(page, 'Lighthouse', secrets[1]!);
    await editPassword(page, 'Harbour office', secrets[2]!);
    await page.getByRole('button', { name: 'Delete Lighthouse' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(card(page, 'Lighthouse')).toHaveCount(0);
    await expect(page.getByText('1 encrypted secret', { exact: true })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search secrets' }).fill('harb');
    await expect(card(page, 'Harbour office')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search secrets' }).fill('');
    expect(await passwordOf(page, 'Harbour office')).toBe(secrets[2]);

    // An import lands as one segment; an export reads the items from the provider.
    const imported = canary(4);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const importing = page.getByRole('dialog', { name: 'Import secrets' });
    await importing.getByLabel('File to import').setInputFiles({
      name: 'chrome.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `name,url,username,password\nRiver lock,https://river.example.test,keeper,${imported}\n`,
      ),
    });
    await importing.getByRole('button', { name: 'Continue' }).click();
    await importing.getByRole('button', { name: /^Import 1 items?$/ }).click();
    await expect(importing).toBeHidden({ timeout: 30_000 });
    await expect(page.getByText('2 encrypted secrets', { exact: true })).toBeVisible();
    expect(await passwordOf(page, 'River lock')).toBe(imported);
    secrets.push(imported);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const exporting = page.getByRole('dialog', { name: 'Export secrets' });
    await exporting.getByLabel('Export password', { exact: true }).fill('export-heron-42');
    await exporting.getByLabel('Export password again', { exact: true }).fill('export-heron-42');
    const downloading = page.waitForEvent('download');
    await exporting.getByRole('button', { name: 'Export', exact: true }).click();
    const text = readFileSync(await (await downloading).path(), 'utf8');
    expect(text).toContain('"format": "sealvault-export"');
    expect(text).not.toContain(imported);

    // Where it lives: segments in the provider, pinned by the manifest; no item on our server.
    const blobs = await segmentsInProvider(page, p, vaultId);
    expect(blobs.length).toBeGreaterThanOrEqual(1);
    expect(pinned(vaultId)?.length).toBeGreaterThanOrEqual(1);
    expect(rowsWhere('secret_items', 'vault_id', vaultId)).toEqual([]);
    expect(serverFilesContaining(secrets)).toEqual([]);

    // Rotation re-encrypts the items in the provider: one snapshot replaces the log.
    await rotate(page, VAULT_PASSWORD, NEW_PASSWORD);
    await expect(card(page, 'Harbour office')).toBeVisible();
    expect(pinned(vaultId)).toHaveLength(1);
    await expect
      .poll(() => segmentsInProvider(page, p, vaultId))
      .toEqual([expect.stringContaining(pinned(vaultId)![0]![0])]);
    expect(await passwordOf(page, 'Harbour office')).toBe(secrets[2]);

    if (p.id === 'local') return; // device-only: another browser has the records, not the items
    // Another browser reads the same vault from the provider.
    const other = await secondBrowser(browser, user, p);
    await openAndUnlock(other, name, NEW_PASSWORD);
    expect(await passwordOf(other, 'Harbour office')).toBe(secrets[2]);
    await expect(other.getByText('2 encrypted secrets', { exact: true })).toBeVisible();
    await other.context().close();
  });
}

test('two browsers editing different items at once both land', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const user = await signedIn(page, request, baseURL!, 'seg-two');
  const name = `Shared ${Date.now().toString(36)}`;
  await newVaultOn(page, DROPBOX, name);
  await addSecret(page, 'Boathouse', 'boathouse-1');
  await addSecret(page, 'Pier gate', 'pier-gate-1');
  const other = await secondBrowser(browser, user, DROPBOX);
  await openAndUnlock(other, name);
  await expect(card(other, 'Boathouse')).toBeVisible();

  // Both forms open on revision 1, saved at the same moment.
  const open = async (pg: Page, title: string, password: string) => {
    await card(pg, title)
      .getByRole('button', { name: `Edit ${title}` })
      .click();
    const dialog = pg.getByRole('dialog');
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    return dialog;
  };
  const a = await open(page, 'Boathouse', 'boathouse-2');
  const b = await open(other, 'Pier gate', 'pier-gate-2');
  await Promise.all([
    a.getByRole('button', { name: 'Save changes' }).click(),
    b.getByRole('button', { name: 'Save changes' }).click(),
  ]);
  await expect(a).toBeHidden({ timeout: 15_000 });
  await expect(b).toBeHidden({ timeout: 15_000 });
  await page.reload();
  await openAndUnlockHere(page);
  expect(await passwordOf(page, 'Boathouse')).toBe('boathouse-2');
  expect(await passwordOf(page, 'Pier gate')).toBe('pier-gate-2');
  await other.context().close();
});

/** After a reload on the vault's page: unlock it again. */
async function openAndUnlockHere(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Unlock Vault' });
  await dialog.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
}

test('a vault whose items are on our server moves them to its provider on unlock, finishing a move cut halfway', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  // A vault made when secrets stayed on our server: its items there, its manifest without
  // segments. Made here as a server vault, then given Dropbox as a hostile-free migration would
  // find it: the provider on the row and no manifest yet (the next unlock writes version 1).
  const user = await signedIn(page, request, baseURL!, 'seg-move');
  await connectCloud(page, DROPBOX.name);
  await page.goto('/dashboard');
  const name = `Older ${Date.now().toString(36)}`;
  await createVault(page, { name, type: 'Secrets vault' });
  await openAndUnlock(page, name);
  const vaultId = vaultIdOf(page);
  const canaries = ['moved-canary-one-5813', 'moved-canary-two-7741'];
  await addSecret(page, 'Tide gauge', canaries[0]!);
  await addSecret(page, 'Ferry', canaries[1]!);
  expect(rowsWhere('secret_items', 'vault_id', vaultId)).toHaveLength(2);
  await page.getByRole('button', { name: 'Lock Vault' }).click();
  updateRow('vaults', vaultId, { provider_type: 'dropbox' });
  deleteRow('vault_manifests', vaultId);

  // A second browser (which never saw a manifest of it) unlocks it: the move starts, writes its
  // segment to Dropbox, and the tab is closed while it reads the segment back.
  const cut = await secondBrowser(browser, user, DROPBOX);
  let readBack = false;
  await cut.route('**/2/files/download', () => {
    readBack = true; // never answered: the tab goes first
  });
  await openAndUnlock(cut, name);
  await expect(cut.getByRole('status')).toContainText(
    "Moving this vault's secrets from SealVault's server to Dropbox: they are written there, checked, and then deleted from the server.",
  );
  await expect.poll(() => readBack, { timeout: 30_000 }).toBe(true);
  await cut.context().close();
  // Nothing moved: the items are still on our server, nothing is pinned, the vault works.
  expect(rowsWhere('secret_items', 'vault_id', vaultId)).toHaveLength(2);
  expect(pinned(vaultId)).toBeUndefined();
  const orphan = await segmentsInProvider(page, DROPBOX, vaultId);
  expect(orphan).toHaveLength(1);

  // The next unlock moves them: written, checked, pinned, then deleted from our server.
  const other = await secondBrowser(browser, user, DROPBOX);
  await openAndUnlock(other, name);
  await expect(card(other, 'Tide gauge')).toBeVisible({ timeout: 30_000 });
  expect(await passwordOf(other, 'Ferry')).toBe(canaries[1]);
  await expect.poll(() => rowsWhere('secret_items', 'vault_id', vaultId).length).toBe(0);
  expect(pinned(vaultId)).toHaveLength(1);
  expect(String(rowOf('vaults', vaultId)!.storage_folder)).toMatch(/^\/SealVault_Older/);
  // The pinned segment, beside the one the cut move left (an orphan, removed by a later compaction).
  const now = await segmentsInProvider(other, DROPBOX, vaultId);
  expect(now).toHaveLength(2);
  expect(now).toContainEqual(expect.stringContaining(pinned(vaultId)![0]![0]));
  expect(serverFilesContaining(canaries)).toEqual([]);
  await other.context().close();
});
