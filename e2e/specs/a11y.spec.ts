// Accessibility: axe-core's WCAG 2.1 A and AA rules over the main screens, in light and in dark
// (contrast, names, labels, landmarks, ARIA), as a screen-reader or low-vision user meets them.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn } from '../support/vaults.ts';
import { makePdf, makePng } from './files/fixtures.ts';
import { openPreview, uploadByPicker } from './files/helpers.ts';

test.describe.configure({ timeout: 120_000 });

/** The violations on the page as it is now, one line each (rule, impact, where, why). */
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

    test('public screens: landing page, sign in, sign up', async ({ page }) => {
      const found: Record<string, string[]> = {};
      await page.goto('/');
      await expect(page.getByRole('link', { name: 'Start Free Today' })).toBeVisible();
      found.landing = await violations(page);
      await page.goto('/auth');
      await expect(page.getByRole('heading', { name: /sign in|welcome/i }).first()).toBeVisible();
      found.signIn = await violations(page);
      await page.getByLabel('Email').fill('nobody@example.test');
      await page.getByLabel('Password', { exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      found.signInError = await violations(page);
      await page.getByRole('link', { name: "Don't have an account? Sign up" }).click();
      await expect(page.getByLabel(/name/i).first()).toBeVisible();
      found.signUp = await violations(page);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/');
      await expect(page.getByRole('link', { name: 'Start Free Today' })).toBeVisible();
      found.phoneLanding = await violations(page);
      await page.getByRole('button', { name: 'Watch Demo' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      found.demo = await violations(page);
      expect(found).toEqual({
        landing: [],
        signIn: [],
        signInError: [],
        signUp: [],
        phoneLanding: [],
        demo: [],
      });
    });

    test('signed-in screens: dashboard, wizard, unlock, files, secrets, settings, plans', async ({
      page,
      request,
      baseURL,
    }) => {
      const found: Record<string, string[]> = {};
      await signedIn(page, request, baseURL!, `a11y-${scheme}`);
      found.emptyDashboard = await violations(page);
      await page.getByRole('button', { name: 'Create New Vault' }).click();
      await expect(page.getByRole('dialog', { name: 'Create New Vault' })).toBeVisible();
      found.wizard = await violations(page);
      await page.keyboard.press('Escape');
      await createVault(page, { name: 'Papers', type: 'File vault' });
      await createVault(page, { name: 'Logins', type: 'Secrets vault' });
      found.dashboard = await violations(page);

      await page.getByRole('link', { name: 'Papers', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Unlock Vault' })).toBeVisible();
      found.unlock = await violations(page);
      await page.goto('/dashboard');
      await openAndUnlock(page, 'Papers');
      await uploadByPicker(page, [
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, accessible') },
        { name: 'dot.png', mimeType: 'image/png', buffer: makePng(40, 30, [200, 60, 90]) },
        { name: 'brief.pdf', mimeType: 'application/pdf', buffer: makePdf(['Quarterly brief']) },
      ]);
      found.files = await violations(page);
      await openPreview(page, 'notes.txt');
      found.preview = await violations(page);
      await page.keyboard.press('Escape');
      const image = await openPreview(page, 'dot.png');
      await expect(image.getByRole('img')).toBeVisible();
      found.imagePreview = await violations(page);
      await page.keyboard.press('Escape');
      const pdf = await openPreview(page, 'brief.pdf');
      await expect(pdf.getByLabel('PDF page 1 of 1')).toBeVisible({ timeout: 15_000 });
      found.pdfPreview = await violations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Grid view' }).click();
      found.grid = await violations(page);
      await page.getByRole('button', { name: 'List view' }).click();
      await page.getByRole('button', { name: 'Vault menu' }).click();
      await expect(page.getByRole('menuitem', { name: 'Delete vault' })).toBeVisible();
      found.vaultMenu = await violations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Upload Files' }).click();
      await expect(page.getByRole('dialog', { name: 'Upload Files' })).toBeVisible();
      found.uploadDialog = await violations(page);
      await page.keyboard.press('Escape');

      await page.goto('/dashboard');
      await openAndUnlock(page, 'Logins');
      await page.getByRole('button', { name: 'Add Plain Text' }).click();
      const add = page.getByRole('dialog', { name: 'Add Plain Text Secret' });
      await add.getByLabel('Title').fill('Wifi');
      await add.getByLabel('Content').fill('passphrase: marmot-lantern-bay');
      found.addSecret = await violations(page);
      await add.getByRole('button', { name: 'Add Plain Text' }).click();
      await expect(add).toBeHidden();
      found.secrets = await violations(page);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
      found.userMenu = await violations(page);
      await page.keyboard.press('Escape');

      await page.goto('/dashboard?view=settings');
      await expect(page.getByRole('heading', { name: /settings/i }).first()).toBeVisible();
      found.settings = await violations(page);
      await page.goto('/subscription');
      await expect(page.getByRole('heading', { name: /plan|subscription/i }).first()).toBeVisible();
      found.subscription = await violations(page);

      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    });

    test('dialogs (account, two-factor, vault password, delete) and the phone layout', async ({
      page,
      request,
      baseURL,
    }) => {
      const found: Record<string, string[]> = {};
      const user = await signedIn(page, request, baseURL!, `a11y-dialogs-${scheme}`);
      await page.goto('/dashboard?view=settings');
      await page.getByRole('button', { name: 'Delete account' }).click();
      const del = page.getByRole('dialog', { name: 'Delete your account?' });
      await del.getByLabel('Password', { exact: true }).fill('not it');
      await del.getByRole('button', { name: 'Delete account' }).click();
      await expect(del.getByRole('alert')).toBeVisible();
      found.deleteAccountError = await violations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Turn on two-factor' }).click();
      const tf = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
      await tf.getByLabel('Password', { exact: true }).fill(user.password);
      await tf.getByRole('button', { name: 'Continue' }).click();
      await expect(tf.getByRole('img', { name: /QR code/ })).toBeVisible();
      found.twoFactorQr = await violations(page);
      await page.keyboard.press('Escape');

      await page.goto('/dashboard');
      await createVault(page, { name: 'Papers', type: 'File vault' });
      await openAndUnlock(page, 'Papers');
      await page.getByRole('button', { name: 'Vault menu' }).click();
      await page.getByRole('menuitem', { name: 'Change password' }).click();
      await expect(page.getByRole('dialog', { name: 'Change vault password' })).toBeVisible();
      found.changeVaultPassword = await violations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Vault menu' }).click();
      await page.getByRole('menuitem', { name: 'Delete vault' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete vault' })).toBeVisible();
      found.deleteVault = await violations(page);
      await page.keyboard.press('Escape');

      await page.setViewportSize({ width: 390, height: 844 });
      found.phoneVault = await violations(page);
      await page.goto('/dashboard');
      await expect(page.getByRole('button', { name: 'Create New Vault' })).toBeVisible();
      found.phoneDashboard = await violations(page);

      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    });
  });
}
