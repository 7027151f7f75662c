// A vault in a cloud account (issue 16), for each provider, against its emulator (e2e/emulators,
// started by playwright.config.ts, which configures the server with their URLs): connect in
// Settings through the provider's popup; create a files vault there; upload a note and a 9 MB file
// (which needs an upload session); preview; download byte-identical; delete; disconnect. The
// provider holds ciphertext only: no canary from the note is in anything it stores. Then Dropbox's
// upload errors: a connection lost in the middle of an upload, which goes on; a full Dropbox.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ciphertextLength, paddedSize } from '@sealvault/protocol';
import { DROPBOX_APP_KEY, emulatorControl } from '../../support/constants.ts';
import { createVault, openAndUnlock } from '../../support/vaults.ts';
import {
  cloudCard,
  connectCloud,
  deleteForGood,
  DROPBOX_FULL_FAULT,
  fileRow,
  unlimitedUser,
  uploadByPicker,
  uploadLargeFile,
  vaultFolder,
} from './helpers.ts';

// One at a time: the tests inject faults into the shared emulators, which a test running beside
// them could otherwise meet.
test.describe.configure({ timeout: 150_000, mode: 'serial' });

const CANARY = 'Kestrel ledger 7731: the lighthouse keeper owes two barrels of oil.';
const NOTE = `${CANARY}\n`.repeat(40);

interface Held {
  files: { size: number; path_lower: string }[];
}

interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents?: string[];
  size?: string;
}

/** A provider as the test sees it: what its emulator holds for a folder, and its request counts. */
interface Subject {
  id: 'dropbox' | 'googledrive';
  name: 'Dropbox' | 'Google Drive';
  /** The blobs in the vault's folder (as vaultFolder gives it), and whether any contains `text`. */
  held: (folder: string) => Promise<{ size: number }[]>;
  holds: (folder: string, text: string) => Promise<boolean>;
  requests: () => Promise<Record<string, number>>;
  /** The request that starts an upload session (large files) and the token revocation. */
  sessionKey: string;
  revokeKey: string;
}

const json = async <T>(url: string, init?: RequestInit) =>
  (await (await fetch(url, init)).json()) as T;

const dropbox: Subject = {
  id: 'dropbox',
  name: 'Dropbox',
  held: async (folder) =>
    (await json<Held>(`${emulatorControl.dropbox()}/files`)).files.filter((f) =>
      f.path_lower.startsWith(`${folder.toLowerCase()}/`),
    ),
  holds: async (_folder, text) => {
    const r = await json<{ files: unknown[]; sessions: unknown[] }>(
      `${emulatorControl.dropbox()}/find-bytes`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      },
    );
    return r.files.length + r.sessions.length > 0;
  },
  requests: async () =>
    (await json<{ requests: Record<string, number> }>(`${emulatorControl.dropbox()}/stats`))
      .requests,
  sessionKey: '/2/files/upload_session/start',
  revokeKey: '/2/auth/token/revoke',
};

const driveFiles = async (folder: string) => {
  const { files } = await json<{ files: DriveFile[] }>(`${emulatorControl.googledrive()}/files`);
  return files.filter((f) => f.parents?.includes(folder));
};

const drive: Subject = {
  id: 'googledrive',
  name: 'Google Drive',
  held: async (folder) => (await driveFiles(folder)).map((f) => ({ size: Number(f.size ?? 0) })),
  holds: async (folder, text) => {
    for (const f of await driveFiles(folder)) {
      const bytes = Buffer.from(
        await (await fetch(`${emulatorControl.googledrive()}/files/${f.id}/content`)).arrayBuffer(),
      );
      if (bytes.includes(text)) return true;
    }
    return false;
  },
  requests: async () =>
    (await json<{ requests: Record<string, number> }>(`${emulatorControl.googledrive()}/stats`))
      .requests,
  sessionKey: 'files.create(resumable)',
  revokeKey: 'oauth.revoke',
};

const providers = [dropbox, drive];

for (const p of providers) {
  test(`a ${p.name} vault: connect, create, upload, preview, download, delete, disconnect`, async ({
    page,
    request,
    baseURL,
  }) => {
    await unlimitedUser(page, request, baseURL!, `cloud-${p.id}`);
    // Connect through the provider's sign-in popup (the emulator approves at once).
    await connectCloud(page, p.name);
    let card = await cloudCard(page, p.name);
    await expect(card.getByRole('button', { name: 'Disconnect' })).toBeEnabled();

    // A files vault there, made through the wizard (its folder first).
    await page.goto('/dashboard');
    await createVault(page, { name: 'Harbour Ledgers', type: 'File vault', provider: p.name });
    await openAndUnlock(page, 'Harbour Ledgers');
    const folder = await vaultFolder(page, 'Harbour Ledgers');
    const before = await p.requests();

    await uploadByPicker(page, [
      { name: 'ledger.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTE) },
    ]);
    const big = await uploadLargeFile(page, 'soundings.bin', 9 * 1000 * 1000);
    const after = await p.requests();
    // The 9 MB file needs an upload session (Dropbox uses one for every file).
    expect((after[p.sessionKey] ?? 0) - (before[p.sessionKey] ?? 0)).toBeGreaterThanOrEqual(1);

    // Ciphertext only at the provider.
    expect(await p.held(folder)).toHaveLength(2);
    expect(await p.holds(folder, CANARY)).toBe(false);
    expect(await p.holds(folder, 'ledger.txt')).toBe(false);

    // Preview, and a byte-identical download of the large file.
    await fileRow(page, 'ledger.txt')
      .getByRole('button', { name: 'ledger.txt', exact: true })
      .click();
    const preview = page.getByRole('dialog', { name: 'ledger.txt' });
    await expect(preview.getByText('the lighthouse keeper owes').first()).toBeVisible();
    await preview.getByRole('button', { name: 'Close' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download soundings.bin' }).click(),
    ]);
    const saved = fs.readFileSync(await download.path());
    expect(createHash('sha256').update(saved).digest('hex')).toBe(
      createHash('sha256').update(big).digest('hex'),
    );

    // Delete removes the provider's copy.
    await deleteForGood(page, 'ledger.txt');
    await expect(fileRow(page, 'ledger.txt')).toHaveCount(0);
    await expect.poll(async () => (await p.held(folder)).length).toBe(1);

    // Disconnect signs out: the token is revoked at the provider and forgotten here.
    const revokes = (await p.requests())[p.revokeKey] ?? 0;
    card = await cloudCard(page, p.name);
    await card.getByRole('button', { name: 'Disconnect' }).click();
    await expect(card.getByRole('button', { name: 'Connect' })).toBeEnabled();
    await expect.poll(async () => (await p.requests())[p.revokeKey] ?? 0).toBe(revokes + 1);

    // The vault now asks for the connection before its password.
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Harbour Ledgers', exact: true }).click();
    const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
    await expect(
      unlock.getByText(`Please connect to ${p.name} to unlock this vault.`),
    ).toBeVisible();
    await expect(unlock.getByRole('button', { name: `Connect ${p.name}` })).toBeEnabled();
  });
}

const dropboxControl = async (path: string, body: unknown) => {
  const res = await fetch(`${emulatorControl.dropbox()}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
};

test('Dropbox upload errors: a lost connection goes on; a full Dropbox, a wrong content hash and a changed folder are reported', async ({
  page,
  request,
  baseURL,
}) => {
  await unlimitedUser(page, request, baseURL!, 'cloud-upload-errors');
  await connectCloud(page, 'Dropbox');
  await page.goto('/dashboard');
  await createVault(page, { name: 'Tide Tables', type: 'File vault', provider: 'Dropbox' });
  await openAndUnlock(page, 'Tide Tables');

  // The connection drops in the middle of a piece: the upload goes on and completes.
  await dropboxControl('faults', {
    path: '/2/files/upload_session/append_v2',
    count: 1,
    destroy: 'mid-body',
  });
  await uploadLargeFile(page, 'tides.bin', 20 * 1024 * 1024);
  await expect(fileRow(page, 'tides.bin')).toBeVisible();

  // A Dropbox without room: the upload fails with a clear message, nothing is recorded. (A fault
  // with Dropbox's insufficient_space answer rather than a smaller quota: the emulator is shared
  // with the specs running beside this one.)
  await dropboxControl('faults', DROPBOX_FULL_FAULT);
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose files to upload').setInputFiles({
    name: 'more.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(3 * 1024 * 1024, 7),
  });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByText(/Your Dropbox is full/)).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(fileRow(page, 'more.bin')).toHaveCount(0);

  // Dropbox answers a content_hash other than ours: the upload fails and nothing is recorded.
  const size = ciphertextLength(paddedSize(1000));
  await dropboxControl('faults', {
    path: '/2/files/upload_session/finish',
    count: 1,
    status: 200,
    body: { '.tag': 'file', name: 'x', size, content_hash: '0'.repeat(64) },
  });
  await uploadByPicker(page, [
    { name: 'tampered.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1000, 65) },
  ]).catch(() => undefined);
  await expect(
    page
      .getByRole('dialog', { name: 'Upload Files' })
      .getByText(/Upload failed\. Please try again\./),
  ).toBeVisible({ timeout: 30_000 });
  await page
    .getByRole('dialog', { name: 'Upload Files' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(fileRow(page, 'tampered.txt')).toHaveCount(0);

  // The folder listing against the records: a blob removed behind the app's back, and one put
  // there by hand, are both reported; nothing is deleted. The vault's own folder, as recorded:
  // cloud-revoked.spec also makes a "Tide Tables" on the shared emulated Dropbox, and whichever
  // comes second gets "/SealVault_Tide Tables (1)" (this check once edited the other's folder).
  const folder = await vaultFolder(page, 'Tide Tables');
  const token = (
    (await (
      await fetch(`${emulatorControl.dropbox()}/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: DROPBOX_APP_KEY }),
      })
    ).json()) as { access_token: string }
  ).access_token;
  const api = (path: string, init: RequestInit) =>
    fetch(`${emulatorControl.dropbox().replace('/__emulator', '')}/2/${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
  const listing = (await (
    await api('files/list_folder', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: folder }),
    })
  ).json()) as { entries: { path_lower: string }[] };
  expect(listing.entries).toHaveLength(1); // tides.bin
  await api('files/delete_v2', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: listing.entries[0]!.path_lower }),
  });
  await api('files/upload', {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      'dropbox-api-arg': JSON.stringify({ path: `${folder}/stray.bin`, mode: 'add' }),
    },
    body: Buffer.from('put here by hand'),
  });
  await page.goto('/dashboard');
  await openAndUnlock(page, 'Tide Tables');
  const notice = page.getByRole('status').filter({ hasText: 'Dropbox folder' });
  // The folder is listed after the vault opens (a request to Dropbox and a decryption): give it
  // the time a busy machine takes.
  await expect(notice).toContainText('1 file of this vault has no data in its Dropbox folder', {
    timeout: 20_000,
  });
  await expect(notice).toContainText(
    "The vault's Dropbox folder holds 1 item this vault has no record of.",
  );
  await expect(fileRow(page, 'tides.bin')).toBeVisible();
});

test('an expired Google Drive token is renewed silently; when Google refuses, the vault asks to connect', async ({
  page,
  request,
  baseURL,
}) => {
  await unlimitedUser(page, request, baseURL!, 'cloud-drive-silent');
  await connectCloud(page, 'Google Drive');
  await page.goto('/dashboard');
  await createVault(page, { name: 'Chart Room', type: 'File vault', provider: 'Google Drive' });
  await openAndUnlock(page, 'Chart Room');
  const expire = () =>
    page.evaluate(() => {
      const key = 'sealvault.googledrive';
      const t = JSON.parse(localStorage.getItem(key)!) as { expires_at: number };
      localStorage.setItem(key, JSON.stringify({ ...t, expires_at: Date.now() - 1000 }));
    });
  const authorizes = async () => (await drive.requests())['oauth.authorize'] ?? 0;

  // Expired: the next upload signs in again without asking (prompt=none), and goes through.
  await expire();
  const before = await authorizes();
  await uploadByPicker(page, [
    { name: 'chart.txt', mimeType: 'text/plain', buffer: Buffer.from('soundings at low water') },
  ]);
  await expect(fileRow(page, 'chart.txt')).toBeVisible();
  expect(await authorizes()).toBeGreaterThan(before);

  // Expired again, and Google no longer has the grant: the connection is cleared, the user told.
  const forget = await fetch(`${emulatorControl.googledrive()}/grants/forget`, { method: 'POST' });
  expect(forget.ok).toBe(true);
  await expire();
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose files to upload').setInputFiles({
    name: 'later.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('later'),
  });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByText('Google Drive not connected')).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => localStorage.getItem('sealvault.googledrive'))).toBeNull();
});
