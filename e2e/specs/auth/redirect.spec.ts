// The signed-in guard: a signed-out visitor goes to /auth and comes back to where they were
// going after signing in; a signed-in visitor to /auth goes on to the dashboard. And the top
// bar's user menu: its entries, and closing on Escape and on an outside click.
import { expect, test } from '@playwright/test';
import {
  createVerifiedUser,
  newUser,
  openUserMenu,
  signInWithForm,
} from '../../support/accounts.ts';

test('returns to the remembered vault page after sign-in', async ({ page, request, baseURL }) => {
  const user = newUser('redirect');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/vault/xyz');
  await expect(page).toHaveURL(/\/auth\?next=%2Fvault%2Fxyz$/);
  await signInWithForm(page, user);
  await expect(page).toHaveURL(/\/vault\/xyz$/);

  // Signed in, /auth goes straight on to the dashboard.
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('returns to the settings view after sign-in', async ({ page, request, baseURL }) => {
  const user = newUser('redirect');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/dashboard?view=settings');
  await expect(page).toHaveURL(/\/auth\?next=/);
  await signInWithForm(page, user);
  await expect(page).toHaveURL(/\/dashboard\?view=settings$/);
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
});

// At /dashboard the vault list and limits are read with the page's session check
// ([Note: early session check] in apps/web/src/auth/sessionPrefetch.ts): a signed-out visitor's
// early reads are answered 401, and the list shown after signing in must not be theirs.
test('the vault list after signing in is read again, not the early 401', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('redirect');
  await createVerifiedUser(request, baseURL ?? '', user);
  const listReads: number[] = [];
  page.on('response', (r) => {
    if (r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/vaults') {
      listReads.push(r.status());
    }
  });
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/); // the dashboard is where a sign-in goes anyway
  await signInWithForm(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Create New Vault' })).toBeVisible();
  await expect(page.getByText('Could not load your vaults.')).toHaveCount(0);
  expect(listReads[0]).toBe(401);
  expect(listReads.at(-1)).toBe(200);
});

test('the user menu navigates and closes on Escape and outside click', async ({
  page,
  request,
  baseURL,
}) => {
  const user = newUser('menu');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/auth');
  await signInWithForm(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);

  await openUserMenu(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeFocused();

  await openUserMenu(page);
  await page.mouse.click(10, 400);
  await expect(page.getByRole('menu')).toBeHidden();

  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Subscription' }).click();
  await expect(page).toHaveURL(/\/dashboard\?view=subscription$/);
  await expect(page.getByRole('heading', { name: 'Subscription Management' })).toBeVisible();

  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\?view=settings$/);

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Your vaults' })).toBeVisible();
});
