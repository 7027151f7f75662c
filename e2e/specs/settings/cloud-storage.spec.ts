// Settings → 'Cloud Storage Settings' (docs/product.md §2 "Settings view", issues 14 and 16): the three
// headings, a connect card per cloud service (this e2e server has both configured, against the
// emulators: each offers Connect; OneDrive has no client and says it is not set up), the
// 'Available Providers' grid, axe clean in light and dark; and the wizard's step 3 offers only
// the providers that can be used now: our server storage and this browser.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signedIn } from '../../support/vaults.ts';

/** axe-core's WCAG 2.1 A/AA violations on the page as it is now, as a11y.spec.ts runs them. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}): ${n.html.slice(0, 160)}: ${n.failureSummary ?? ''}`),
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test('Cloud Storage Settings shows its cards and providers, axe clean', async ({
      page,
      request,
      baseURL,
    }) => {
      await signedIn(page, request, baseURL!, `cloud-settings-${scheme}`);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Settings' }).click();
      await expect(page).toHaveURL(/view=settings/);
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /^(?!.*dark)/);

      const section = page.getByRole('region', { name: 'Cloud Storage Settings' });
      await expect(
        section.getByRole('heading', { name: 'Cloud Storage Settings', level: 3 }),
      ).toBeVisible();
      await expect(section.getByRole('heading', { name: 'How it works' })).toBeVisible();
      await expect(section.getByRole('heading', { name: 'Available Providers' })).toBeVisible();

      for (const name of ['Google Drive', 'Dropbox', 'OneDrive']) {
        const card = section.getByRole('region', { name, exact: true });
        await expect(card).toContainText(`Connect your ${name} account to keep vaults there.`);
        await expect(card.getByRole('button', { name: 'Connect' })).toBeEnabled();
      }

      const grid = section
        .getByRole('region', { name: 'Available Providers' })
        .getByRole('listitem');
      await expect(grid).toHaveText([
        'SealVault storageConnected',
        'This browserAvailable', // Chromium has OPFS
        'Google DriveNot connected',
        'DropboxNot connected',
        'OneDriveNot connected',
      ]);

      expect(await violations(page)).toEqual([]);
    });
  });
}

test("the wizard's storage step offers our server storage and this browser only", async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'cloud-wizard');
  await page.getByRole('button', { name: 'Create New Vault' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Vault' });
  await dialog.getByLabel('Vault name').fill('Photos');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('Step 3 of 4')).toBeVisible();

  const enabled = dialog.getByRole('radio', { disabled: false });
  await expect(enabled).toHaveCount(2);
  await expect(enabled.nth(0)).toHaveAccessibleName('SealVault storage');
  await expect(enabled.nth(1)).toHaveAccessibleName('This browser');
  for (const name of ['Google Drive', 'Dropbox', 'OneDrive']) {
    await expect(dialog.getByRole('radio', { name })).toBeDisabled();
  }
  await expect(
    dialog.getByText('The files stay in this browser only and are lost if site data is cleared.'),
  ).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Google Drive' })).toHaveAccessibleDescription(
    /Not connected/,
  );
  await expect(dialog.getByRole('radio', { name: 'OneDrive' })).toHaveAccessibleDescription(
    /Not connected/,
  );
  // Connecting happens in Settings, in a new tab, so what the wizard holds is kept.
  const settings = dialog.getByRole('link', { name: /Connect a provider in Settings/ });
  await expect(settings).toHaveAttribute('href', '/dashboard?view=settings#settings-storage');
  await expect(settings).toHaveAttribute('target', '_blank');

  // A secrets vault may live in this browser too, and step 3 says where its items go.
  await dialog.getByRole('button', { name: 'Back' }).click();
  await dialog.getByRole('radio', { name: /Secrets vault/ }).check();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByRole('radio', { name: 'This browser' })).toBeEnabled();
  await expect(
    dialog.getByText('The secrets stay in this browser only and are lost if site data is cleared.'),
  ).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Dropbox' })).toHaveAccessibleDescription(
    /Encrypted secrets in a SealVault folder of your Dropbox\./,
  );
});
