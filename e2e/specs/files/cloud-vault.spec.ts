// A vault in a cloud account (issue 16), for each provider, against its emulator (e2e/emulators,
// started by playwright.config.ts, which configures the server with their URLs): connect in
// Settings through the provider's popup; create a files vault there; upload a note and a 9 MB file
// (which needs an upload session); preview; download byte-identical; delete; disconnect. The
// provider holds ciphertext only: no canary from the note is in anything it stores.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { emulatorControl } from '../../support/constants.ts';
import { createVault, openAndUnlock, signedIn } from '../../support/vaults.ts';
import { adminUpgrade, promote } from '../subscription/plans.ts';
import { fileRow, uploadByPicker, uploadLargeFile } from './helpers.ts';

test.describe.configure({ timeout: 150_000 });

const CANARY = 'Kestrel ledger 7731: the lighthouse keeper owes two barrels of oil.';
const NOTE = `${CANARY}\n`.repeat(40);

interface Held {
  files: { size: number }[];
}

const providers = [
  {
    id: 'dropbox' as const,
    name: 'Dropbox' as const,
    /** What the emulator holds, and whether any of it contains `text`. */
    held: async () => (await (await fetch(`${emulatorControl.dropbox()}/files`)).json()) as Held,
    holds: async (text: string) => {
      const r = (await (
        await fetch(`${emulatorControl.dropbox()}/find-bytes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        })
      ).json()) as { files: unknown[]; sessions: unknown[] };
      return r.files.length + r.sessions.length > 0;
    },
    requests: async () =>
      (
        (await (await fetch(`${emulatorControl.dropbox()}/stats`)).json()) as {
          requests: Record<string, number>;
        }
      ).requests,
    sessionKey: '/2/files/upload_session/start',
    revokeKey: '/2/auth/token/revoke',
  },
];

async function settingsCard(page: Page, name: string) {
  await page.goto('/dashboard?view=settings');
  return page
    .getByRole('region', { name: 'Cloud Storage Settings' })
    .getByRole('region', { name, exact: true });
}

for (const p of providers) {
  test(`a ${p.name} vault: connect, create, upload, preview, download, delete, disconnect`, async ({
    page,
    request,
    baseURL,
  }) => {
    const user = await signedIn(page, request, baseURL!, `cloud-${p.id}`);
    promote(user.email);
    await page.goto('/dashboard?view=subscription');
    await adminUpgrade(page, 'Unlimited');

    // Connect through the provider's sign-in popup (the emulator approves at once).
    let card = await settingsCard(page, p.name);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      card.getByRole('button', { name: 'Connect' }).click(),
    ]);
    await popup.waitForEvent('close');
    await expect(card.getByText('Connected', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Disconnect' })).toBeEnabled();

    // A files vault there, made through the wizard (its folder first).
    await page.goto('/dashboard');
    await createVault(page, { name: 'Harbour Ledgers', type: 'File vault', provider: p.name });
    await openAndUnlock(page, 'Harbour Ledgers');
    const before = await p.requests();

    await uploadByPicker(page, [
      { name: 'ledger.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTE) },
    ]);
    const big = await uploadLargeFile(page, 'soundings.bin', 9 * 1000 * 1000);
    const after = await p.requests();
    expect((after[p.sessionKey] ?? 0) - (before[p.sessionKey] ?? 0)).toBeGreaterThanOrEqual(2);

    // Ciphertext only at the provider.
    expect((await p.held()).files).toHaveLength(2);
    expect(await p.holds(CANARY)).toBe(false);
    expect(await p.holds('ledger.txt')).toBe(false);

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
    await fileRow(page, 'ledger.txt').getByRole('button', { name: 'Delete ledger.txt' }).click();
    await page
      .getByRole('dialog', { name: 'Delete file' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(fileRow(page, 'ledger.txt')).toHaveCount(0);
    await expect.poll(async () => (await p.held()).files.length).toBe(1);

    // Disconnect signs out: the token is revoked at the provider and forgotten here.
    const revokes = (await p.requests())[p.revokeKey] ?? 0;
    card = await settingsCard(page, p.name);
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
