// The steps the secrets benches drive through the UI: a secrets vault made in the Create New
// Vault wizard on a given provider (bench/secrets/provider.ts), an empty vault unlocked, and
// items imported through the Import dialog, timed from the file chosen (provider.ts's import
// figures and bench/secrets/import.ts).
import type { Page } from 'playwright-core';
import { typeVaultPassword } from '../shared/app.ts';
import { secretsSearch } from './search.ts';

/** The wizard's name for each provider the bench measures. */
export const WIZARD_NAME = {
  dropbox: 'Dropbox',
  local: 'This browser',
  server: 'SealVault storage',
} as const;
export type Provider = keyof typeof WIZARD_NAME;

/** A secrets vault made through the wizard, unlocked and empty; answers its id. */
export async function newVault(
  page: Page,
  provider: Provider,
  name: string,
  password: string,
): Promise<string> {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Create New Vault' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Vault' });
  await dialog.getByLabel('Vault name').fill(name);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('radio', { name: /Secrets vault/ }).check();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('radio', { name: new RegExp(WIZARD_NAME[provider]) }).check();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('Vault password').fill(password);
  await dialog.getByLabel('Confirm password').fill(password);
  await dialog.getByRole('button', { name: 'Create Vault' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
  const link = page.getByRole('list', { name: 'Vaults' }).getByRole('link', { name, exact: true });
  const href = await link.getAttribute('href', { timeout: 15_000 });
  const id = href!.split('/').pop()!;
  await unlockEmpty(page, id, password);
  return id;
}

/** Opens the empty secrets vault `id` and unlocks it, until its (empty) list shows. */
export async function unlockEmpty(page: Page, id: string, password: string): Promise<void> {
  const unlock = await typeVaultPassword(page, id, password);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await unlock.waitFor({ state: 'hidden', timeout: 60_000 });
  await page.getByText('0 encrypted secrets').waitFor({ timeout: 60_000 });
}

/** Imports `n` items through the dialog; times from the file chosen. */
export async function importItems(page: Page, file: Buffer, n: number) {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import secrets' });
  const input = dialog.getByLabel('File to import');
  await input.waitFor({ state: 'attached' });
  const t0 = performance.now();
  await input.setInputFiles({
    name: 'bitwarden_export.json',
    mimeType: 'application/json',
    buffer: file,
  });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const confirm = dialog.getByRole('button', {
    name: `Import ${n.toLocaleString('en-US')} items`,
  });
  await confirm.waitFor({ timeout: 60_000 });
  const t1 = performance.now();
  await confirm.click();
  await dialog.waitFor({ state: 'hidden', timeout: 180_000 });
  const t2 = performance.now();
  const { countText, query, title } = secretsSearch(n, `Site ${n - 1}`);
  await page.getByText(countText).waitFor({ timeout: 60_000 });
  await page.getByRole('searchbox', { name: 'Search secrets' }).fill(query);
  await page.getByRole('article', { name: title, exact: true }).waitFor({ timeout: 60_000 });
  const t3 = performance.now();
  return { preview: t1 - t0, stored: t2 - t0, searchable: t3 - t0 };
}
