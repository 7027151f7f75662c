// Accessibility: axe-core's WCAG 2.1 A and AA rules over the main screens, in light and in dark
// (contrast, names, labels, landmarks, ARIA), as a screen-reader or low-vision user meets them.
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  createVault,
  openAndUnlock,
  signedIn,
  VAULT_PASSWORD,
  vaultCard,
} from '../support/vaults.ts';
import { bothSchemes } from '../support/themes.ts';
import { toasts } from '../support/toasts.ts';
import { makePdf, makePng } from './files/fixtures.ts';
import { openPreview, uploadByPicker } from './files/helpers.ts';

// The phone walks visit every signed-in screen and dialog in the light theme: the layout does not
// change with the theme, and the dark theme's contrast is checked on the same screens at desktop
// width (the two walks above), so a second pass at 360 px would only double the run.
test.describe.configure({ timeout: 300_000 });

/** The violations on the page as it is now, one line each (rule, impact, where, why). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}): ${n.html.slice(0, 160)}: ${n.failureSummary ?? ''}`),
  );
}

// [Note: phone layout] Every screen at 360 px (the narrowest phone we design for): the page never scrolls sideways, nothing sticks out of the viewport unclipped, headings
// do not skip a level, and the account menu (the only way to Settings and Logout) stays on screen.
const PHONE = { width: 360, height: 740 };
/** 69 characters: the name that once made the dashboard 579 px wide. */
const LONG_VAULT_NAME = 'The family archive: deeds, passports, insurance, tax returns and more';

/**
 * What is wrong with the layout at the viewport's width, one line each: a horizontal scroll; the
 * outermost elements that reach past either edge without an ancestor that clips them inside the
 * viewport (a `truncate` or an `overflow-x-auto` is fine, a row pushing the page wider is not);
 * a heading more than one level below the one before it (Lighthouse's heading order).
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const width = doc.clientWidth;
    const problems: string[] = [];
    if (doc.scrollWidth > width) problems.push(`scrollWidth ${doc.scrollWidth} > ${width}`);
    const inside = (r: DOMRect) => r.left >= -0.5 && r.right <= width + 0.5;
    const clipsItself = (s: CSSStyleDeclaration) => s.clipPath !== 'none' || s.clip !== 'auto';
    const reported = new Set<Element>();
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || inside(r) || clipsItself(getComputedStyle(el)))
        continue;
      let clipped = false;
      for (let a = el.parentElement; a && a !== document.body && !clipped; a = a.parentElement) {
        clipped =
          reported.has(a) ||
          (getComputedStyle(a).overflowX !== 'visible' && inside(a.getBoundingClientRect()));
      }
      if (clipped) continue;
      reported.add(el);
      const text = (el.textContent ?? '').trim().slice(0, 40);
      const cls = (el.getAttribute('class') ?? '').slice(0, 60);
      problems.push(
        `<${el.tagName} class="${cls}"> ${Math.round(r.left)}..${Math.round(r.right)} "${text}"`,
      );
    }
    let previous: number | null = null;
    for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')) {
      if (h.getClientRects().length === 0 || h.closest('[aria-hidden="true"]')) continue;
      const level = Number(h.getAttribute('aria-level') ?? h.tagName.slice(1));
      if (previous !== null && level > previous + 1)
        problems.push(`h${level} after h${previous}: "${(h.textContent ?? '').slice(0, 40)}"`);
      previous = level;
    }
    return problems;
  });
}

/** The account menu's button is shown and wholly inside the viewport (behind an open dialog too). */
async function accountMenuProblems(page: Page): Promise<string[]> {
  const button = page.getByRole('button', { name: /^Account menu/, includeHidden: true });
  if (!(await button.isVisible())) return ['account menu not shown'];
  const box = await button.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box || box.x < 0 || box.x + box.width > width || box.y < 0)
    return [`account menu outside the viewport: ${JSON.stringify(box)}`];
  return [];
}

/**
 * The layout, axe, and (signed in) the account menu of the screen as it is now. With E2E_SHOTS
 * naming a folder, a full-page screenshot goes there, to look at.
 */
async function checkPhone(
  page: Page,
  name: string,
  scheme: string,
  { account = true } = {},
): Promise<string[]> {
  const dir = process.env.E2E_SHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}-${scheme}.png`), fullPage: true });
  return [
    ...(await layoutProblems(page)),
    ...(account ? await accountMenuProblems(page) : []),
    ...(await violations(page)),
  ];
}

/** Where an unlocked vault's card puts its 'Unlocked' badge and delete button over each other. */
async function badgeOverlaps(page: Page, name: string, scheme: string): Promise<string[]> {
  const card = vaultCard(page, name);
  const badge = card.getByText('Unlocked', { exact: true });
  const remove = card.getByRole('button', { name: `Delete vault ${name}` });
  const problems: string[] = [];
  // One column, two, three and four columns of cards.
  for (const width of [360, 640, 1024, 1280]) {
    await page.setViewportSize({ width, height: PHONE.height });
    const dir = process.env.E2E_SHOTS;
    if (dir) await page.screenshot({ path: path.join(dir, `card-${width}-${scheme}.png`) });
    const [a, b] = [await badge.boundingBox(), await remove.boundingBox()];
    if (!a || !b) problems.push(`${width} px: badge or delete button not shown`);
    else if (
      a.x < b.x + b.width &&
      b.x < a.x + a.width &&
      a.y < b.y + b.height &&
      b.y < a.y + a.height
    )
      problems.push(`${width} px: badge ${JSON.stringify(a)} overlaps delete ${JSON.stringify(b)}`);
  }
  await page.setViewportSize(PHONE);
  return problems;
}

test.use({ colorScheme: 'light' });

test('public screens: landing page, sign in, sign up', async ({ page }) => {
  const found: Record<string, string[]> = {};
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Start Free Today' })).toBeVisible();
  found.landing = await bothSchemes(page, () => violations(page));
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: /sign in|welcome/i }).first()).toBeVisible();
  found.signIn = await bothSchemes(page, () => violations(page));
  await page.getByLabel('Email').fill('nobody@example.test');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  found.signInError = await bothSchemes(page, () => violations(page));
  await page.getByRole('link', { name: "Don't have an account? Sign up" }).click();
  await expect(page.getByLabel(/name/i).first()).toBeVisible();
  found.signUp = await bothSchemes(page, () => violations(page));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Start Free Today' })).toBeVisible();
  found.phoneLanding = await bothSchemes(page, () => violations(page));
  await page.getByRole('button', { name: 'Watch Demo' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  found.demo = await bothSchemes(page, () => violations(page));
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
  await signedIn(page, request, baseURL!, 'a11y');
  found.emptyDashboard = await bothSchemes(page, () => violations(page));
  await page.getByRole('button', { name: 'Create New Vault' }).click();
  await expect(page.getByRole('dialog', { name: 'Create New Vault' })).toBeVisible();
  found.wizard = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  await createVault(page, { name: 'Papers', type: 'File vault' });
  await createVault(page, { name: 'Logins', type: 'Secrets vault' });
  found.dashboard = await bothSchemes(page, () => violations(page));

  await page.getByRole('link', { name: 'Papers', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Unlock Vault' })).toBeVisible();
  found.unlock = await bothSchemes(page, () => violations(page));
  await page.goto('/dashboard');
  await openAndUnlock(page, 'Papers');
  await uploadByPicker(page, [
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, accessible') },
    { name: 'dot.png', mimeType: 'image/png', buffer: makePng(40, 30, [200, 60, 90]) },
    { name: 'brief.pdf', mimeType: 'application/pdf', buffer: makePdf(['Quarterly brief']) },
  ]);
  found.files = await bothSchemes(page, () => violations(page));
  await openPreview(page, 'notes.txt');
  found.preview = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  const image = await openPreview(page, 'dot.png');
  await expect(image.getByRole('img')).toBeVisible();
  found.imagePreview = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  const pdf = await openPreview(page, 'brief.pdf');
  await expect(pdf.getByLabel('PDF page 1 of 1')).toBeVisible({ timeout: 15_000 });
  found.pdfPreview = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Grid view' }).click();
  found.grid = await bothSchemes(page, () => violations(page));
  await page.getByRole('button', { name: 'List view' }).click();
  await page.getByRole('button', { name: 'Vault menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete vault' })).toBeVisible();
  found.vaultMenu = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Upload Files' }).click();
  await expect(page.getByRole('dialog', { name: 'Upload Files' })).toBeVisible();
  found.uploadDialog = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');

  await page.goto('/dashboard');
  await openAndUnlock(page, 'Logins');
  await page.getByRole('button', { name: 'Add Plain Text' }).click();
  const add = page.getByRole('dialog', { name: 'Add Plain Text Secret' });
  await add.getByLabel('Title').fill('Wifi');
  await add.getByLabel('Content').fill('passphrase: marmot-lantern-bay');
  found.addSecret = await bothSchemes(page, () => violations(page));
  await add.getByRole('button', { name: 'Add Plain Text' }).click();
  await expect(add).toBeHidden();
  found.secrets = await bothSchemes(page, () => violations(page));
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  found.userMenu = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');

  await page.goto('/dashboard?view=settings');
  await expect(page.getByRole('heading', { name: /settings/i }).first()).toBeVisible();
  found.settings = await bothSchemes(page, () => violations(page));
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: /plan|subscription/i }).first()).toBeVisible();
  found.subscription = await bothSchemes(page, () => violations(page));

  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
});

test('dialogs (account, two-factor, vault password, delete, folders) and the phone layout', async ({
  page,
  request,
  baseURL,
}) => {
  const found: Record<string, string[]> = {};
  const user = await signedIn(page, request, baseURL!, 'a11y-dialogs');
  await page.goto('/dashboard?view=settings');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const del = page.getByRole('dialog', { name: 'Delete your account?' });
  await del.getByLabel('Password', { exact: true }).fill('not it');
  await del.getByRole('button', { name: 'Delete account' }).click();
  await expect(del.getByRole('alert')).toBeVisible();
  found.deleteAccountError = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  const tf = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
  await tf.getByLabel('Password', { exact: true }).fill(user.password);
  await tf.getByRole('button', { name: 'Continue' }).click();
  await expect(tf.getByRole('img', { name: /QR code/ })).toBeVisible();
  found.twoFactorQr = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');

  await page.goto('/dashboard');
  await createVault(page, { name: 'Papers', type: 'File vault' });
  await openAndUnlock(page, 'Papers');
  await page.getByRole('button', { name: 'Vault menu' }).click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  await expect(page.getByRole('dialog', { name: 'Change vault password' })).toBeVisible();
  found.changeVaultPassword = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Vault menu' }).click();
  await page.getByRole('menuitem', { name: 'Delete vault' }).click();
  await expect(page.getByRole('dialog', { name: 'Delete vault' })).toBeVisible();
  found.deleteVault = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  // Folders: the New folder dialog with its error, then a folder row selected and Move to.
  await page.getByRole('button', { name: 'New folder' }).click();
  const newFolder = page.getByRole('dialog', { name: 'New folder' });
  await newFolder.getByRole('button', { name: 'Create folder' }).click();
  await expect(newFolder.getByRole('alert')).toHaveText('Enter a name for the folder.');
  found.newFolder = await bothSchemes(page, () => violations(page));
  await newFolder.getByLabel('Folder name').fill('Scans');
  await newFolder.getByRole('button', { name: 'Create folder' }).click();
  await expect(newFolder).toBeHidden();
  await page.getByRole('checkbox', { name: 'Select Scans' }).check();
  await page
    .getByRole('region', { name: 'Selected files' })
    .getByRole('button', { name: 'Move to' })
    .click();
  await expect(page.getByRole('dialog', { name: 'Move "Scans"' })).toBeVisible();
  found.moveDialog = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  // The trash with an item in it, then its Empty trash dialog.
  await page.getByRole('button', { name: 'Delete Scans' }).click();
  await page.getByRole('button', { name: 'Trash (1)' }).click();
  await expect(page.getByRole('list', { name: 'Trash' })).toBeVisible();
  found.trash = await bothSchemes(page, () => violations(page));
  await page.getByRole('button', { name: 'Empty trash' }).click();
  await expect(page.getByRole('dialog', { name: 'Empty trash' })).toBeVisible();
  found.emptyTrash = await bothSchemes(page, () => violations(page));
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Back to files' }).click();

  await page.setViewportSize({ width: 390, height: 844 });
  // The trash's 'Moved to trash · Undo' toast first goes: fading out, its Undo button was read
  // at a contrast of 1.16 once (CI). The toast's own contrast is checked while it is shown.
  await expect(toasts(page)).toHaveCount(0, { timeout: 20_000 });
  found.phoneVault = await bothSchemes(page, () => violations(page));
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Create New Vault' })).toBeVisible();
  found.phoneDashboard = await bothSchemes(page, () => violations(page));

  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
});

test('phone, 360 px: landing, sign in, sign up fit without a sideways scroll', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const found: Record<string, string[]> = {};
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Start Free Today' })).toBeVisible();
  found.landing = await checkPhone(page, 'landing', 'light', { account: false });
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: /sign in|welcome/i }).first()).toBeVisible();
  found.signIn = await checkPhone(page, 'sign-in', 'light', { account: false });
  await page.getByRole('link', { name: "Don't have an account? Sign up" }).click();
  await expect(page.getByLabel(/name/i).first()).toBeVisible();
  found.signUp = await checkPhone(page, 'sign-up', 'light', { account: false });
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
});

test('phone, 360 px: every signed-in screen and dialog fits, the account menu stays reachable', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize(PHONE);
  const found: Record<string, string[]> = {};
  await signedIn(page, request, baseURL!, 'a11y-phone');
  found.emptyDashboard = await checkPhone(page, 'dashboard-empty', 'light');

  // The wizard, step by step, making the vault with the 69-character name.
  await page.getByRole('button', { name: 'Create New Vault' }).click();
  const wizard = page.getByRole('dialog', { name: 'Create New Vault' });
  await wizard.getByLabel('Vault name').fill(LONG_VAULT_NAME);
  found.wizardInfo = await checkPhone(page, 'wizard-1', 'light');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('radio', { name: /File vault/ }).check();
  found.wizardType = await checkPhone(page, 'wizard-2', 'light');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('radio', { name: /SealVault storage/ }).check();
  found.wizardProvider = await checkPhone(page, 'wizard-3', 'light');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await wizard.getByLabel('Confirm password').fill(VAULT_PASSWORD);
  found.wizardPassword = await checkPhone(page, 'wizard-4', 'light');
  await wizard.getByRole('button', { name: 'Create Vault' }).click();
  await expect(wizard).toBeHidden({ timeout: 15_000 });
  await createVault(page, { name: 'Logins', type: 'Secrets vault' });
  found.dashboard = await checkPhone(page, 'dashboard', 'light');
  await page.getByRole('button', { name: /^Account menu/ }).click();
  const logout = page.getByRole('menuitem', { name: 'Logout' });
  await expect(logout).toBeInViewport({ ratio: 1 });
  found.userMenu = await checkPhone(page, 'user-menu', 'light');
  await page.keyboard.press('Escape');

  // A files vault: the unlock dialog, then the list with a long file name.
  await vaultCard(page, LONG_VAULT_NAME)
    .getByRole('link', { name: LONG_VAULT_NAME, exact: true })
    .click();
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  found.unlock = await checkPhone(page, 'unlock', 'light');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await uploadByPicker(page, [
    {
      name: 'scanned-insurance-policy-household-contents-2024-final-signed.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf(['Policy']),
    },
    { name: 'dot.png', mimeType: 'image/png', buffer: makePng(40, 30, [200, 60, 90]) },
  ]);
  found.files = await checkPhone(page, 'files', 'light');
  await page.getByRole('button', { name: 'Grid view' }).click();
  found.filesGrid = await checkPhone(page, 'files-grid', 'light');
  await page.getByRole('button', { name: 'List view' }).click();

  // The dashboard with the long-named vault unlocked: its card shows the badge and the
  // delete button, side by side at every width. (In-app navigation: a reload locks vaults.)
  await page.getByRole('link', { name: 'Back to Dashboard' }).first().click();
  await expect(vaultCard(page, LONG_VAULT_NAME).getByText('Unlocked')).toBeVisible();
  found.dashboardUnlocked = await checkPhone(page, 'dashboard-unlocked', 'light');
  found.cardOverlap = await badgeOverlaps(page, LONG_VAULT_NAME, 'light');

  // A secrets vault with a secret.
  await openAndUnlock(page, 'Logins');
  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const add = page.getByRole('dialog', { name: 'Add Secret' });
  await add.getByLabel('Title').fill('The credit union online banking (joint account)');
  await add.getByLabel('Username').fill('household.finances.manager@example.test');
  await add.getByLabel('Password', { exact: true }).fill('marmot-lantern-bay-42');
  await add.getByLabel('Website').fill('https://online-banking.credit-union.example.test/login');
  found.addSecret = await checkPhone(page, 'add-secret', 'light');
  await add.getByRole('button', { name: 'Add Secret' }).click();
  await expect(add).toBeHidden();
  found.secrets = await checkPhone(page, 'secrets', 'light');

  await page.goto('/dashboard?view=settings');
  await expect(page.getByRole('heading', { name: /settings/i }).first()).toBeVisible();
  found.settings = await checkPhone(page, 'settings', 'light');
  await page.goto('/dashboard?view=subscription');
  await expect(page.getByRole('heading', { name: /plan|subscription/i }).first()).toBeVisible();
  found.subscription = await checkPhone(page, 'subscription', 'light');

  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
});

test('sharing: the Share dialog, the link made, the recipient page', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const found: Record<string, string[]> = {};
  await signedIn(page, request, baseURL!, 'a11y-share');
  await page.goto('/dashboard?view=shares');
  await page.getByRole('button', { name: 'Send a text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a text' });
  await dialog.getByLabel('Text').fill('a text for the a11y scan');
  await dialog.getByLabel('Password (optional)').fill('open sesame');
  await dialog.getByLabel('Note to the recipient (optional)').fill('A note');
  found.shareDialog = await bothSchemes(page, () => violations(page));
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = dialog.getByLabel('Link', { exact: true });
  await expect(link).toHaveValue(/#/, { timeout: 30_000 });
  found.shareMade = await bothSchemes(page, () => violations(page));
  const url = await link.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('list', { name: 'Shared links' })).toBeVisible();
  found.sharedLinks = await bothSchemes(page, () => violations(page));
  const r = await (await browser.newContext({ baseURL })).newPage();
  await r.goto(url);
  await expect(r.getByText('A note')).toBeVisible();
  found.recipient = await bothSchemes(r, () => violations(r));
  await r.getByLabel('Password').fill('open sesame');
  await r.getByRole('button', { name: 'Unlock' }).click();
  await r.getByRole('button', { name: 'Show the text' }).click();
  await expect(r.getByText('a text for the a11y scan')).toBeVisible();
  found.recipientOpened = await bothSchemes(r, () => violations(r));
  await r.context().close();
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
});
