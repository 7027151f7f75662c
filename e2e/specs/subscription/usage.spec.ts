// Spec §2 and §9: the usage bar of vaults against the limit is green below 70%, yellow from 70%
// and red from 90%. On Basic (10 vaults): 5, 7 and 9 vaults. The storage bar sits beside it.
import { expect, test, type Page } from '@playwright/test';
import { signedIn } from '../../support/vaults.ts';
import { adminUpgrade, createVaultsViaApi, promote } from './plans.ts';

// Each test signs a fresh user up and in; allow for a busy machine.
test.describe.configure({ timeout: 90_000 });

const bar = (page: Page) => page.getByRole('progressbar', { name: 'Vault usage' });

async function expectLevel(page: Page, percent: number, level: string) {
  await page.goto('/dashboard');
  await expect(bar(page)).toHaveAttribute('aria-valuenow', String(percent));
  await expect(bar(page)).toHaveAttribute('data-level', level);
}

test('the usage bar is ok at 50%, warning at 70% and critical at 90% of the limit', async ({
  page,
  request,
  baseURL,
}) => {
  const user = await signedIn(page, request, baseURL ?? '', 'usage');
  promote(user.email);
  await page.goto('/subscription');
  await adminUpgrade(page, 'Basic');

  await createVaultsViaApi(page, 5);
  await expectLevel(page, 50, 'ok');
  await expect(page.getByText('5 of 10 vaults used')).toBeVisible();
  // Beside it, the storage the files take on SealVault storage against the plan's quota.
  const storage = page.getByRole('progressbar', { name: 'Storage usage' });
  await expect(storage).toHaveAttribute('data-level', 'ok');
  await expect(storage).toHaveAttribute('aria-valuetext', '0 B of 10 GB used');

  await createVaultsViaApi(page, 2, 'More');
  await expectLevel(page, 70, 'warning');

  await createVaultsViaApi(page, 2, 'Last');
  await expectLevel(page, 90, 'critical');
  await expect(page.getByRole('button', { name: 'Create New Vault' })).toBeVisible();
});

test('after a downgrade below the vault count the vaults stay and the dashboard explains', async ({
  page,
  request,
  baseURL,
}) => {
  const user = await signedIn(page, request, baseURL ?? '', 'overlimit');
  promote(user.email);
  await page.goto('/subscription');
  await adminUpgrade(page, 'Basic');
  await createVaultsViaApi(page, 3);
  await page.getByRole('button', { name: 'Switch to Free: Free' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Switch to Free' }).click();
  await expect(page.getByTestId('current-plan-name')).toHaveText('Free');

  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'Vaults' }).getByRole('link')).toHaveCount(3);
  await expect(page.getByText(/You have 3 vaults and your plan allows 2/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Vault Limit Reached' })).toBeVisible();
  await expect(bar(page)).toHaveAttribute('data-level', 'critical');
});
