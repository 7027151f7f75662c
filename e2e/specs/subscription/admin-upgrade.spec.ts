// Spec §2 Subscription page, §4 Plan and Vault visibility, §6 admin role: an admin upgrades
// without paying, the top bar follows, and on Pro a vault can be hidden and shown again.
import { expect, test } from '@playwright/test';
import { createVault, signedIn, vaultCard } from '../../support/vaults.ts';
import { adminUpgrade, promote, topBarPlan } from './plans.ts';

// Each test signs a fresh user up and in; allow for a busy machine.
test.describe.configure({ timeout: 90_000 });

test('an admin upgrades to Pro, hides a vault, and the dashboard toggle shows it again', async ({
  page,
  request,
  baseURL,
}) => {
  // Two vaults through the wizard (Argon2id in the browser) take a while on a slow machine.
  test.setTimeout(120_000);
  const user = await signedIn(page, request, baseURL ?? '', 'admin');
  promote(user.email);
  await createVault(page, { name: 'Board minutes', type: 'File vault' });
  await createVault(page, { name: 'Shared logins', type: 'Secrets vault' });
  await expect(topBarPlan(page, 'Free')).toBeVisible();

  await page.goto('/dashboard?view=subscription');
  await expect(page.getByRole('heading', { name: 'Subscription Management' })).toBeVisible();
  await expect(page.getByText('Admin', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
  await adminUpgrade(page, 'Pro');
  await expect(topBarPlan(page, 'Pro')).toBeVisible();
  const proCard = page.getByRole('article', { name: 'Pro' });
  await expect(proCard.getByText('Current Plan').first()).toBeVisible();

  await page.goto('/dashboard?view=settings');
  const toggle = page.getByRole('switch', { name: 'Hide Board minutes from the dashboard' });
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(vaultCard(page, 'Shared logins')).toBeVisible();
  await expect(vaultCard(page, 'Board minutes')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show 1 hidden vault(s)' }).click();
  await expect(vaultCard(page, 'Board minutes')).toBeVisible();
  await page.getByRole('button', { name: 'Hide hidden vaults' }).click();
  await expect(vaultCard(page, 'Board minutes')).toHaveCount(0);

  // The hidden state is the server's: it survives a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show 1 hidden vault(s)' })).toBeVisible();
});

test('the current plan in the top bar changes after an upgrade and a switch to Free', async ({
  page,
  request,
  baseURL,
}) => {
  const user = await signedIn(page, request, baseURL ?? '', 'topbar');
  promote(user.email);
  // The role was changed out of band (the admin command): load the page again to read it.
  await page.reload();
  await expect(topBarPlan(page, 'Free')).toBeVisible();
  await topBarPlan(page, 'Free').click();
  await expect(page).toHaveURL(/view=subscription/);
  await adminUpgrade(page, 'Unlimited');
  await expect(topBarPlan(page, 'Unlimited')).toBeVisible();

  // Granted without a paid period, so Switch to Free applies at once.
  await page.getByRole('button', { name: 'Switch to Free: Free' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch to Free?' });
  await expect(dialog).toContainText('Your plan switches to Free now.');
  await dialog.getByRole('button', { name: 'Switch to Free' }).click();
  await expect(dialog).toBeHidden();
  await expect(topBarPlan(page, 'Free')).toBeVisible();
  await expect(page.getByTestId('current-plan-name')).toHaveText('Free');
});
