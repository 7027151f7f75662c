// [Note: dashboard frame before the app] (apps/web/index.html, auth/signedInHint.ts): at
// /dashboard, on a signed-in device (its request carried a session cookie, [Note: session hint in
// Server-Timing]; without the server's word, its last session check found a session),
// index.html's frame (the top bar and the heading) paints with the HTML and is the page's largest
// contentful paint; React's copy of it adds no later candidate; while the session check is still
// out the guard draws the same frame (shell/DashboardLoading.tsx), not its spinner. Nobody else
// sees the frame; it speaks the page's language.
import { expect, test, type Page } from '@playwright/test';
import { signOut } from '../../support/accounts.ts';
import { expectStaticLcp, recordLcpInside } from '../../support/paints.ts';
import { signedIn } from '../../support/vaults.ts';

const html = (page: Page) => page.locator('html');
const hint = (page: Page) => page.evaluate(() => localStorage.getItem('sealvault.signedIn'));

test.describe('on a phone', () => {
  // Lighthouse's mobile screen (bench/lighthouse). On a wide screen the free plan's upgrade
  // banner, drawn from the plan's limits after the session check, is larger than the frame's
  // paragraph and is the LCP there, as it was before the frame.
  test.use({ viewport: { width: 412, height: 823 } });

  test('a signed-in device paints the dashboard frame first, and it is the LCP', async ({
    page,
    request,
    baseURL,
  }) => {
    await recordLcpInside(page, '#boot-dashboard');
    // The first visit after the sign-in: the local storage holds no hint yet, but the server
    // told the page that its request carried a session cookie ([Note: session hint in
    // Server-Timing]), so the frame shows; the session check then leaves the local hint.
    await signedIn(page, request, baseURL!, 'frame');
    await expect(html(page)).toHaveClass(/\bboot-dashboard\b/);
    await expect.poll(() => hint(page)).toBe('1');

    await page.reload();
    await expect(html(page)).toHaveClass(/\bboot-dashboard\b/);
    await expect(page.getByRole('heading', { name: 'Your Vaults', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    // React's render replaced the frame.
    await expect(page.locator('#boot-dashboard')).toHaveCount(0);

    await expectStaticLcp(page);
  });
});

test('while the session check is out, the guard draws the same frame, not a spinner', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'frame-wait');
  await expect.poll(() => hint(page)).toBe('1');
  // Where index.html's paragraph sits, read before any script of the app has run.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const p = document.querySelector<HTMLElement>('#boot-dashboard p');
      const box = p?.getBoundingClientRect();
      (window as unknown as { frameText: unknown }).frameText = {
        text: p?.innerText.replace(/\s+/g, ' ').trim(),
        box: box && [box.x, box.y, box.width, box.height],
      };
    });
  });
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/get-session', async (route) => {
    await held;
    await route.continue();
  });

  await page.reload();
  const loading = page.getByTestId('dashboard-loading');
  await expect(loading).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading your account...' })).toHaveCount(
    1,
  );
  const fromHtml = await page.evaluate(
    () => (window as unknown as { frameText: unknown }).frameText,
  );
  const fromReact = await loading.locator('p').evaluate((p) => {
    const box = p.getBoundingClientRect();
    return {
      text: (p as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
      box: [box.x, box.y, box.width, box.height],
    };
  });
  expect(fromReact).toEqual(fromHtml);
  await expect(page.locator('.animate-spin')).toHaveCount(0);

  release();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(loading).toHaveCount(0);
});

test('the frame in German, and none after a sign-out', async ({ page, request, baseURL }) => {
  await signedIn(page, request, baseURL!, 'frame-none');
  await expect.poll(() => hint(page)).toBe('1');

  // German: the frame's German texts, and the German dashboard after it.
  await page.evaluate(() => localStorage.setItem('sealvault.language', 'de'));
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.reload();
  await expect(html(page)).toHaveClass(/\bboot-dashboard\b/);
  await expect(html(page)).toHaveClass(/\bboot-de\b/);
  const frame = page.locator('#boot-dashboard');
  await expect(frame.locator('p')).toHaveText(
    'Alles in einem Tresor wird auf diesem Gerät mit dem Passwort des Tresors verschlüsselt.',
    { useInnerText: true },
  );
  await expect(frame.getByText('Your Vaults')).toBeHidden();
  await expect(frame.getByText('Ihre Tresore')).toBeVisible();
  await page.unroute(/\/assets\/.*\.js$/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Ihre Tresore', level: 1 })).toBeVisible();
  await page.evaluate(() => localStorage.removeItem('sealvault.language'));
  await page.reload();
  await expect(html(page)).toHaveClass(/\bboot-dashboard\b/);
  await expect(html(page)).not.toHaveClass(/\bboot-de\b/);

  await signOut(page);
  expect(await hint(page)).toBeNull();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth/);
  await expect(html(page)).not.toHaveClass(/\bboot-dashboard\b/);
  // A stale local hint (a session ended elsewhere): the server's word that no session cookie
  // came with the request wins, and no frame shows.
  await page.evaluate(() => localStorage.setItem('sealvault.signedIn', '1'));
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth/);
  await expect(html(page)).not.toHaveClass(/\bboot-dashboard\b/);
});
