// The admin console (issue 33, docs/product.md "Admin console"): an admin, made with the real
// admin command, invites a user from /admin, who signs up through the link; the admin disables a
// signed-in user, whose page's next request shows the sign-in screen and whose sign-in is refused
// with the disabled text; the console at 360 px, light and dark, without sideways scrolling and
// without an axe-core WCAG 2.1 A/AA violation.
// The e2e server runs with SIGNUP_MODE=open, where an invitation's link opens the sign-up form as
// any visitor's would (the invite-only and closed modes are the server's and the sign-up form's
// unit tests: signup-policy.test.ts, SignUpForm.test.tsx).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  createVerifiedUser,
  mailLink,
  newUser,
  openUserMenu,
  signInWithForm,
  VERIFY_SUBJECT,
} from '../../support/accounts.ts';
import { signedIn } from '../../support/vaults.ts';
import { promote } from '../subscription/plans.ts';

// Each test signs fresh users up and in; allow for a busy machine.
test.describe.configure({ timeout: 120_000 });

/** A fresh admin, signed in, on the console (reached from the account menu). */
async function adminOnConsole(
  page: Page,
  request: Parameters<typeof signedIn>[1],
  baseURL: string,
) {
  const admin = await signedIn(page, request, baseURL, 'admin');
  promote(admin.email);
  // The role changed out of band (the admin command): load the page again to read it.
  await page.reload();
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Admin console' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin console' })).toBeVisible();
  return admin;
}

test('an admin invites a user, who signs up through the link', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  await adminOnConsole(page, request, baseURL ?? '');
  const invitee = newUser('invited');

  await page.getByRole('link', { name: 'Invitations' }).click();
  await expect(page.getByRole('heading', { name: 'Invitations' })).toBeVisible();
  await page.getByLabel('Email (optional)').fill(invitee.email);
  await page.getByLabel('Expires').selectOption({ label: 'In 7 days' });
  await page.getByRole('button', { name: 'Create invitation' }).click();
  await expect(page.getByText(`Invitation created for ${invitee.email}.`)).toBeVisible();
  const url = await page.getByLabel('Invitation link').inputValue();
  expect(url).toMatch(/\/auth\?invite=[A-Za-z0-9_-]{43}$/);
  const invitations = page.getByRole('list', { name: 'Invitations' });
  await expect(invitations.getByText(invitee.email)).toBeVisible();

  // The invitee, in a browser of their own, opens the link and signs up.
  const theirs = await browser.newContext();
  try {
    const guest = await theirs.newPage();
    await guest.goto(url);
    await expect(guest.getByRole('heading', { name: 'Create account' })).toBeVisible();
    await guest.getByLabel('Full name').fill(invitee.name);
    await guest.getByLabel('Email').fill(invitee.email);
    await guest.getByLabel('Password', { exact: true }).fill(invitee.password);
    await guest.getByLabel('Confirm password').fill(invitee.password);
    await guest.getByRole('button', { name: 'Create account' }).click();
    await expect(
      guest.getByText(
        'Account created successfully! Please check your email to verify your account.',
      ),
    ).toBeVisible();
    await guest.goto(await mailLink(invitee.email, VERIFY_SUBJECT));
    await expect(guest).toHaveURL(/\/auth\?verified=1$/);
    await signInWithForm(guest, invitee);
    await expect(guest).toHaveURL(/\/dashboard/);
  } finally {
    await theirs.close();
  }

  // The admin finds the new account in Users.
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Search users by email or name').fill(invitee.email);
  await page.getByRole('button', { name: 'Search' }).click();
  const card = page.getByRole('listitem', { name: invitee.email });
  await expect(card).toBeVisible();
  await expect(card.getByText(invitee.name)).toBeVisible();
});

test('the admin disables a user, who is signed out at once and cannot sign in', async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  // The user, signed in on the dashboard in a browser of their own.
  const theirs = await browser.newContext();
  try {
    const victimPage = await theirs.newPage();
    const victim = await signedIn(victimPage, theirs.request, baseURL ?? '', 'disabled');

    await adminOnConsole(page, request, baseURL ?? '');
    await page.getByLabel('Search users by email or name').fill(victim.email);
    await page.getByRole('button', { name: 'Search' }).click();
    const card = page.getByRole('listitem', { name: victim.email });
    await card.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: `Disable ${victim.email}?` });
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('Disabled', { exact: true })).toBeVisible();

    // Their page's next request finds no session: the sign-in screen.
    await victimPage.goto('/dashboard?view=settings');
    await expect(victimPage.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await signInWithForm(victimPage, victim);
    await expect(
      victimPage.getByText('This account is disabled. Ask the administrator of this server.'),
    ).toBeVisible();
    await expect(victimPage).toHaveURL(/\/auth/);

    // The audit log names the action.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const log = page.getByRole('list', { name: 'Audit log' });
    await expect(log.getByText('Disabled an account').first()).toBeVisible();
    await expect(log.getByText(new RegExp(victim.email)).first()).toBeVisible();
  } finally {
    await theirs.close();
  }
});

test('a user who is not an admin is told the console is not for them', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL ?? '', 'notadmin');
  await openUserMenu(page);
  await expect(page.getByRole('menuitem', { name: 'Admin console' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('every section fits, in light and dark', async ({ page, request, baseURL }, testInfo) => {
    const other = newUser('listed');
    await createVerifiedUser(request, baseURL ?? '', other);
    await adminOnConsole(page, request, baseURL ?? '');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const section of ['users', 'invitations', 'storage', 'instance', 'audit']) {
        await page.goto(`/admin?section=${section}`);
        await expect(page.locator('#admin-section-title')).toBeVisible();
        await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `${section} in ${scheme}`).toBeLessThanOrEqual(0);
        const axe = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
          .analyze();
        expect(
          axe.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 120)}`)),
          `${section} in ${scheme}`,
        ).toEqual([]);
        await page.screenshot({
          path: testInfo.outputPath(`admin-${section}-${scheme}.png`),
          fullPage: true,
        });
      }
    }
    // And on a desktop, for the record (the screenshots are the test's attachments).
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/admin?section=instance');
      await expect(page.getByText('Healthy')).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`admin-instance-${scheme}-desktop.png`) });
    }
  });
});
