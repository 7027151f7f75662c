// The idle lock and kept work (issue 20, item 7): 'Lock vaults after inactivity' in Settings, the
// warning before the lock, a half-typed secret that survives the lock and an unlock in place, and
// 'Keep unlocked'. Time is Playwright's clock, fast-forwarded: no real waits.
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';

// Each test derives keys with Argon2id (64 MiB) several times: give slow machines room.
test.describe.configure({ timeout: 90_000 });

/** Opens the Add Site Password form and types part of a secret, leaving it unsaved. */
async function halfTypedSecret(page: Page) {
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const form = page.getByRole('dialog', { name: 'Add Secret' });
  await form.getByLabel('Title').fill('Half-typed bank login');
  await form.getByLabel('Username').fill('wombat@example.test');
  return form;
}

const warning = (page: Page) => page.getByRole('alertdialog');

test('a half-typed secret survives the idle lock and an unlock in place', async ({
  page,
  request,
  baseURL,
}) => {
  await page.clock.install();
  await signedIn(page, request, baseURL!, 'idle');
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Lock vaults after inactivity' });
  await expect(panel.getByRole('radio', { name: 'Off' })).toBeChecked();
  await panel.getByRole('radio', { name: '1 minute' }).check();
  await expect(panel.getByRole('radio', { name: '1 minute' })).toBeChecked();
  await page.goto('/dashboard');

  await createVault(page, { name: 'Idle logins', type: 'Secrets vault' });
  await openAndUnlock(page, 'Idle logins');
  const form = await halfTypedSecret(page);

  // 30 seconds without input: the warning, with its countdown; the vault is still open.
  await page.clock.fastForward('00:31');
  await expect(warning(page)).toBeVisible();
  await expect(warning(page)).toContainText('Locking soon: no activity');
  await expect(warning(page)).toContainText(/locks in 0:\d\d/);
  await expect(warning(page).getByRole('button', { name: 'Keep unlocked' })).toBeFocused();

  // Nobody answers: every vault locks, the form is kept but nothing of it is shown.
  await page.clock.fastForward('00:30');
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await expect(unlock).toBeVisible();
  await expect(unlock).toContainText('Vault locked after a period without activity');
  await expect(warning(page)).toHaveCount(0);
  await expect(form).toBeHidden();
  await expect(page.getByText('wombat@example.test')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeHidden();

  // Unlock in place: the form comes back as it was, and saving it works.
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await expect(form).toBeVisible();
  await expect(form.getByLabel('Title')).toHaveValue('Half-typed bank login');
  await expect(form.getByLabel('Username')).toHaveValue('wombat@example.test');
  await form.getByLabel('Password', { exact: true }).fill('kangaroo-paddle-42');
  await form.getByRole('button', { name: 'Add Secret' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('article', { name: 'Half-typed bank login' })).toBeVisible();
});

test('Keep unlocked keeps the vault and the form open', async ({ page, request, baseURL }) => {
  await page.addInitScript(() => localStorage.setItem('sealvault.idleLockMinutes', '1'));
  await page.clock.install();
  await signedIn(page, request, baseURL!, 'keep');
  await createVault(page, { name: 'Kept logins', type: 'Secrets vault' });
  await openAndUnlock(page, 'Kept logins');
  const form = await halfTypedSecret(page);

  await page.clock.fastForward('00:31');
  await warning(page).getByRole('button', { name: 'Keep unlocked' }).click();
  await expect(warning(page)).toHaveCount(0);
  // The idle time starts again from the click: 29 s later nothing has happened.
  await page.clock.fastForward('00:29');
  await expect(warning(page)).toHaveCount(0);
  await expect(form).toBeVisible();
  await expect(form.getByLabel('Title')).toHaveValue('Half-typed bank login');
  // The focus went back where it was before the warning took it.
  await expect(form.getByLabel('Username')).toBeFocused();
  await expect(page.getByRole('dialog', { name: 'Unlock Vault' })).toHaveCount(0);
});
