// [Note: sign-in card before the app] (apps/web/index.html, public/theme-init.js): at /auth's
// sign-in step, index.html's picture of the sign-in card paints with the HTML and is the page's
// largest contentful paint; React's card, drawn in the same places, adds no later candidate. It
// speaks the page's language, and shows neither at another step nor on a signed-in device (its
// request carried a session cookie: [Note: session hint in Server-Timing]).
import { expect, test, type Page } from '@playwright/test';
import { expectStaticLcp, recordLcpInside } from '../../support/paints.ts';
import { signedIn } from '../../support/vaults.ts';

const html = (page: Page) => page.locator('html');
const scripts = /\/assets\/.*\.js$/;

/** The boxes of the elements `selectors` name, in that order (undefined for one not there). */
function boxes(page: Page, ...selectors: string[]) {
  return page.evaluate(
    (all) =>
      all.map((selector) => {
        const box = document.querySelector(selector)?.getBoundingClientRect();
        return box && [box.x, box.y, box.width, box.height];
      }),
    selectors,
  );
}

test.describe('on a phone', () => {
  // Lighthouse's mobile screen (bench/lighthouse).
  test.use({ viewport: { width: 412, height: 823 } });

  test('the sign-in card paints with the HTML and is the LCP', async ({ page }) => {
    await recordLcpInside(page, '#boot-auth');
    // A first visit, then a reload with the scripts in the cache (landing.spec.ts says why both).
    for (const load of ['first visit', 'reload'] as const) {
      if (load === 'first visit') await page.goto('/auth');
      else await page.reload();
      await expect(html(page)).toHaveClass(/\bboot-auth\b/);
      // React's card, with the real form, has replaced the picture.
      await expect(page.getByRole('heading', { name: 'Welcome back', level: 1 })).toBeVisible();
      await expect(page.locator('#boot-auth')).toHaveCount(0);

      await expectStaticLcp(page, load);
    }
  });

  test('React draws its card where the picture was, and the form works at once', async ({
    page,
  }) => {
    // The picture alone: the app's scripts held back.
    await page.route(scripts, (route) => route.abort());
    await page.goto('/auth?next=%2Fsettings');
    await expect(html(page)).toHaveClass(/\bboot-auth\b/);
    const frame = page.locator('#boot-auth');
    await expect(frame.getByText('Welcome back')).toBeVisible();
    await expect(frame.getByText('Sign in with a passkey')).toBeVisible();
    // This server offers Google sign-in (playwright.config.ts): its page's answer said so
    // ([Note: session hint in Server-Timing]), and the picture has the button.
    await expect(html(page)).toHaveClass(/\bboot-google\b/);
    await expect(frame.getByText('Continue with Google')).toBeVisible();
    // A picture, not a form: nothing in it takes the focus.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('#boot-auth') ?? null)).toBe(
      null,
    );
    const pictured = await boxes(
      page,
      '#boot-auth .text-2xl',
      '#boot-auth input.boot-en',
      '#boot-auth .bg-indigo-600',
      '#boot-auth .boot-google .h-12',
    );
    expect(pictured.every(Boolean)).toBe(true);

    // React's first render: before the server's sign-in options arrive, its Google button from
    // the page's word, so nothing moves when they do.
    await page.unroute(scripts);
    await page.route('**/api/auth-config', () => undefined);
    await page.reload();
    const heading = page.getByRole('heading', { name: 'Welcome back', level: 1 });
    await expect(heading).toBeVisible();
    await expect(frame).toHaveCount(0);
    const google = page.getByRole('button', { name: 'Continue with Google' });
    await expect(google).toBeVisible();
    const drawn = () =>
      boxes(
        page,
        'main h1',
        'main input[type=email]',
        'main [type=submit]',
        'main button:has(svg[viewBox="0 0 24 24"] path[fill="#4285F4"])',
      );
    expect(await drawn()).toEqual(pictured);
    // The sign-in options, once in, change nothing on the card.
    await page.unroute('**/api/auth-config');
    const configured = page.waitForResponse('**/api/auth-config');
    await page.reload();
    await configured;
    await expect(google).toBeVisible();
    expect(await drawn()).toEqual(pictured);
    await page.getByLabel('Email').fill('someone@example.com');
    await expect(page.getByLabel('Email')).toHaveValue('someone@example.com');
  });
});

test('in German; not at another step, nor on a signed-in device', async ({
  page,
  request,
  baseURL,
}) => {
  await page.route(scripts, (route) => route.abort());
  await page.goto('/auth');
  await page.evaluate(() => localStorage.setItem('sealvault.language', 'de'));
  await page.reload();
  await expect(html(page)).toHaveClass(/\bboot-auth\b/);
  await expect(html(page)).toHaveClass(/\bboot-de\b/);
  const frame = page.locator('#boot-auth');
  await expect(frame.getByText('Willkommen zurück')).toBeVisible();
  await expect(frame.getByText('Welcome back')).toBeHidden();
  await expect(frame.getByPlaceholder('name@beispiel.de')).toBeVisible();
  await page.evaluate(() => localStorage.removeItem('sealvault.language'));

  for (const other of ['/auth?mode=signup', '/auth?step=forgot', '/auth?verified=1']) {
    await page.goto(other);
    await expect(html(page), other).not.toHaveClass(/\bboot-auth\b/);
    await expect(frame, other).toBeHidden();
  }

  // A local hint whose session is gone (no session cookie came with the request): the card.
  await page.evaluate(() => localStorage.setItem('sealvault.signedIn', '1'));
  await page.goto('/auth');
  await expect(html(page)).toHaveClass(/\bboot-auth\b/);

  // A signed-in device goes on to the dashboard: no card ([Note: session hint in Server-Timing]).
  await page.unroute(scripts);
  await signedIn(page, request, baseURL!, 'card-signed-in');
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(html(page)).not.toHaveClass(/\bboot-auth\b/);
});
