// The hostile-server tier (issue 18, ADR 0007): the server's rows are rewritten behind its back
// (support/tamper.ts) between page loads, and the app refuses or shows each change with the text
// the user reads. Each test keeps one browser context across its reloads: the device remembers
// the highest manifest version it has seen (IndexedDB).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FAST_KDF, localClient, multiKeySlot } from '../../../packages/crypto/src/testkit.ts';
import { asVaultId } from '../../../packages/crypto/src/ids.ts';
import {
  deleteRow,
  insertRow,
  replaceKey,
  rowOf,
  rowsWhere,
  storedKey,
  storedManifest,
  updateRow,
} from '../../support/tamper.ts';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';
import { deleteForGood, fileRow, uploadByPicker } from '../files/helpers.ts';

test.describe.configure({ timeout: 90_000 });

// The texts of apps/web/src/vaults/manifest (problems.ts, manifestCore.ts's integrityTexts).
const NOTICE = 'This vault does not match its manifest';
const texts = {
  slotAdded:
    'This vault has a key slot this device does not know: it was added or replaced outside this app. Unlock is refused.',
  slotsChanged:
    "This vault's key slots do not match its manifest: they were changed outside this app. Unlock is refused.",
  uncommitted:
    "This vault's key slot was replaced outside this app by one without a commitment, which could open under several passwords. Unlock is refused.",
  older: (version: number, seen: number) =>
    `The server returned an older version of this vault (manifest version ${version}; this device has seen version ${seen}). The vault's contents are not shown.`,
};

const vaultIdOf = (page: Page) => {
  const id = new URL(page.url()).pathname.split('/').pop();
  if (!id) throw new Error(`no vault id in ${page.url()}`);
  return id;
};

const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const notice = (page: Page) => page.getByRole('alert', { name: NOTICE });
const unlockDialog = (page: Page) => page.getByRole('dialog', { name: 'Unlock Vault' });

/** Reloads the vault page (the vault locks) and submits the password again. */
async function reloadAndUnlock(page: Page) {
  await page.reload();
  const dialog = unlockDialog(page);
  await dialog.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await dialog.getByRole('button', { name: 'Unlock' }).click();
  return dialog;
}

/** The unlock dialog refused with `text`: it stays open and nothing of the vault is shown. */
async function expectRefused(page: Page, text: string) {
  const dialog = unlockDialog(page);
  await expect(dialog.getByRole('alert')).toHaveText(text, { timeout: 15_000 });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('button', { name: 'Lock Vault' })).toHaveCount(0);
}

async function addSecret(page: Page, title: string, username: string) {
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Secret' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByRole('button', { name: 'Add Secret' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, title)).toBeVisible();
}

/** A new user inside a new unlocked vault; answers the vault's id. */
async function inNewVault(
  page: Page,
  request: Parameters<typeof signedIn>[1],
  baseURL: string,
  tag: string,
  name: string,
  type: 'File vault' | 'Secrets vault',
): Promise<string> {
  await signedIn(page, request, baseURL, tag);
  await createVault(page, { name, type });
  await openAndUnlock(page, name);
  return vaultIdOf(page);
}

/** The revision the stored manifest pins for a secret (undefined when it lists none). */
const pinnedRevision = (vaultId: string, id: string) =>
  storedManifest(vaultId)?.manifest.secrets.find(([s]) => s === id)?.[1];
const pinnedFiles = (vaultId: string) =>
  storedManifest(vaultId)?.manifest.files.map(([id]) => id) ?? [];

const text = (name: string, body: string) => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(body),
});

test('a secret rolled back to an older revision is named and not shown', async ({
  page,
  request,
  baseURL,
}) => {
  const vaultId = await inNewVault(
    page,
    request,
    baseURL!,
    'rollback',
    'Rollback',
    'Secrets vault',
  );
  await addSecret(page, 'Bank', 'first-owner');
  await addSecret(page, 'Mail', 'postbox');
  await expect.poll(() => storedManifest(vaultId)?.manifest.secrets.length).toBe(2);
  // Both rows at revision 1, saved before the edit.
  const before = rowsWhere('secret_items', 'vault_id', vaultId);
  expect(before.map((r) => Number(r.revision))).toEqual([1, 1]);

  await card(page, 'Bank').getByRole('button', { name: 'Edit Bank' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Secret' });
  await edit.getByLabel('Username').fill('second-owner');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(card(page, 'Bank').getByText('second-owner')).toBeVisible();
  const edited = () =>
    rowsWhere('secret_items', 'vault_id', vaultId).find((r) => Number(r.revision) === 2);
  await expect.poll(() => edited() && pinnedRevision(vaultId, String(edited()!.id))).toBe(2);
  const old = before.find((r) => r.id === edited()!.id)!;
  expect(Number(old.revision)).toBe(1);

  // The server hands out revision 1 again.
  updateRow('secret_items', String(old.id), {
    data: old.data!,
    revision: old.revision!,
    updated_at: old.updated_at!,
  });
  await reloadAndUnlock(page);
  await expect(notice(page).getByRole('listitem')).toHaveText([
    'The secret “Bank” was rolled back by the server to an older version (revision 1; the manifest has revision 2). It is not shown.',
  ]);
  await expect(card(page, 'Mail')).toBeVisible();
  await expect(card(page, 'Bank')).toHaveCount(0);
  await expect(page.getByText('first-owner')).toHaveCount(0);
});

test('a file row deleted by the server is counted as missing', async ({
  page,
  request,
  baseURL,
}) => {
  const vaultId = await inNewVault(page, request, baseURL!, 'deleted', 'Deleted', 'File vault');
  await uploadByPicker(page, [
    text('kept-ledger.txt', 'kept'),
    text('withheld-ledger.txt', 'withheld'),
  ]);
  await expect.poll(() => pinnedFiles(vaultId).length).toBe(2);
  const rows = rowsWhere('vault_files', 'vault_id', vaultId);
  expect(rows).toHaveLength(2);
  // Which row is which is not readable here (the names are encrypted); either one will do.
  deleteRow('vault_files', String(rows[0]!.id));

  await reloadAndUnlock(page);
  await expect(notice(page).getByRole('listitem')).toHaveText([
    "A file in this vault's manifest is missing from the server: deleted or withheld outside this app.",
  ]);
  await expect(page.getByRole('list', { name: 'Files' }).getByRole('listitem')).toHaveCount(1);
});

test('a deleted file put back by the server is named and not shown', async ({
  page,
  request,
  baseURL,
}) => {
  const vaultId = await inNewVault(page, request, baseURL!, 'resurrect', 'Resurrect', 'File vault');
  const name = 'shredded-contract.txt';
  await uploadByPicker(page, [text(name, 'the terms we tore up'), text('other.txt', 'other')]);
  await expect.poll(() => pinnedFiles(vaultId).length).toBe(2);
  const saved = rowsWhere('vault_files', 'vault_id', vaultId);

  await deleteForGood(page, name);
  await expect(fileRow(page, name)).toHaveCount(0);
  await expect.poll(() => pinnedFiles(vaultId).length).toBe(1);
  const gone = saved.find((r) => !pinnedFiles(vaultId).includes(String(r.id)))!;
  expect(rowOf('vault_files', String(gone.id))).toBeUndefined();

  // The server puts the deleted record back.
  insertRow('vault_files', gone);
  await reloadAndUnlock(page);
  await expect(notice(page).getByRole('listitem')).toHaveText([
    `The file “${name}” is not in this vault's manifest: the server added it back or made it up. It is not shown.`,
  ]);
  await expect(fileRow(page, 'other.txt')).toBeVisible();
  await expect(fileRow(page, name)).toHaveCount(0);
});

test('two secrets swapped by the server are both refused', async ({ page, request, baseURL }) => {
  const vaultId = await inNewVault(page, request, baseURL!, 'swap', 'Swap', 'Secrets vault');
  await addSecret(page, 'Alpha', 'alpha-user');
  await addSecret(page, 'Beta', 'beta-user');
  await addSecret(page, 'Gamma', 'gamma-user');
  await expect.poll(() => storedManifest(vaultId)?.manifest.secrets.length).toBe(3);
  const rows = rowsWhere('secret_items', 'vault_id', vaultId);
  expect(rows).toHaveLength(3);
  // Two of the three records trade places (which is which is not readable here).
  const [first, second] = [rows[0]!, rows[1]!];
  updateRow('secret_items', String(first.id), { revision: second.revision!, data: second.data! });
  updateRow('secret_items', String(second.id), { revision: first.revision!, data: first.data! });
  await reloadAndUnlock(page);
  // Each record's AAD binds its id, so neither decrypts under the other's id: neither is named.
  const swapped =
    "A secret does not match this vault's manifest: the server changed or swapped it. It is not shown.";
  await expect(notice(page).getByRole('listitem')).toHaveText([swapped, swapped]);
  // Only the untouched one is listed.
  await expect(page.getByRole('article')).toHaveCount(1);
});

test('a vault renamed by the server is shown as such', async ({ page, request, baseURL }) => {
  const vaultId = await inNewVault(
    page,
    request,
    baseURL!,
    'rename',
    'Tax papers',
    'Secrets vault',
  );
  await addSecret(page, 'Revenue office', 'taxpayer');
  await expect.poll(() => storedManifest(vaultId)?.manifest.secrets.length).toBe(1);

  updateRow('vaults', vaultId, { name: 'Free money' });
  await reloadAndUnlock(page);
  await expect(notice(page).getByRole('listitem')).toHaveText([
    "The server changed this vault's name from “Tax papers” to “Free money”.",
  ]);
  await shots(page);
});

// The vault record parses with any slots (vaultKeyRecordSchema), so the dashboard still lists
// every vault and the unlock names the extra slot.
test('a second password slot added by the server refuses unlock', async ({
  page,
  request,
  baseURL,
}) => {
  const vaultId = await inNewVault(page, request, baseURL!, 'slot', 'Slotted', 'Secrets vault');
  await addSecret(page, 'Locker', 'locksmith');
  const key = storedKey(vaultId);
  const password = key.slots.find((s) => s.kind === 'password');
  expect(password).toBeDefined();
  replaceKey(vaultId, { ...key, slots: [...key.slots, { ...password, id: crypto.randomUUID() }] });

  await reloadAndUnlock(page);
  await expectRefused(page, texts.slotAdded);
  await expect(page.getByText('locksmith')).toHaveCount(0);
});

test('a recovery slot added by the server refuses unlock', async ({ page, request, baseURL }) => {
  const vaultId = await inNewVault(page, request, baseURL!, 'recslot', 'Recovery', 'Secrets vault');
  await addSecret(page, 'Locker', 'locksmith');
  const key = storedKey(vaultId);
  expect(key.slots.map((s) => s.kind)).toEqual(['password']);
  // The password slot again, relabelled: a slot of a kind the vault has none of.
  const added = { ...key.slots[0], id: crypto.randomUUID(), kind: 'recovery' };
  replaceKey(vaultId, { ...key, slots: [...key.slots, added] });

  await reloadAndUnlock(page);
  await expectRefused(page, texts.slotsChanged);
  await expect(page.getByText('locksmith')).toHaveCount(0);
});

test('a manifest rolled back by the server refuses unlock', async ({ page, request, baseURL }) => {
  const vaultId = await inNewVault(page, request, baseURL!, 'manifest', 'Chain', 'Secrets vault');
  await addSecret(page, 'First', 'one');
  await expect.poll(() => storedManifest(vaultId)?.manifest.secrets.length).toBe(1);
  const saved = rowOf('vault_manifests', vaultId)!;
  await addSecret(page, 'Second', 'two');
  await expect.poll(() => storedManifest(vaultId)?.manifest.secrets.length).toBe(2);
  const seen = storedManifest(vaultId)!.version;
  expect(seen).toBe(Number(saved.version) + 1);

  updateRow('vault_manifests', vaultId, {
    version: saved.version!,
    manifest: saved.manifest!,
    updated_at: saved.updated_at!,
  });
  await reloadAndUnlock(page);
  await expectRefused(page, texts.older(Number(saved.version), seen));
});

test('a slot that opens under several passwords refuses unlock', async ({
  page,
  request,
  baseURL,
}) => {
  const vaultId = await inNewVault(
    page,
    request,
    baseURL!,
    'multikey',
    'Salamander',
    'Secrets vault',
  );
  await addSecret(page, 'Vault door', 'keeper');
  const passwords = [VAULT_PASSWORD, 'guessed-by-the-server-1', 'guessed-by-the-server-2'] as const;
  const slot = await multiKeySlot(asVaultId(vaultId), passwords, FAST_KDF);
  const key = { format: 'vf1' as const, slots: [slot] };
  // The slot is what the attack says: it opens under each of the three (on the legacy path).
  const { client } = localClient();
  for (const p of passwords) {
    const session = await client.unlockVault(asVaultId(vaultId), key, p, { allowLegacy: true });
    await client.closeSession(session);
  }
  replaceKey(vaultId, key);

  await reloadAndUnlock(page);
  await expectRefused(page, texts.uncommitted);
  await expect(page.getByText('keeper')).toHaveCount(0);
});

/** The notice in light and dark, for a human to look at, when E2E_SHOTS_DIR is set. */
async function shots(page: Page) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    const toggle = page.getByRole('button', { name: `Switch to ${theme} theme` });
    if (await toggle.isVisible()) await toggle.click();
    await expect(page.locator('html')).toHaveClass(
      theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/,
    );
    await page.screenshot({ path: path.join(dir, `integrity-notice-${theme}.png`) });
  }
}
