// Settings in sections (issue 25): a sub-navigation (a nav named 'Settings sections') links to
// Account, Security, Storage and Vaults in page order, works with the keyboard, marks the section
// being read, and the red 'Delete account' panel comes after all of them; axe clean in light and
// dark, at a desktop width and at 360 px.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signedIn } from '../../support/vaults.ts';

const SECTIONS = ['Account', 'Security', 'Storage', 'Vaults'];

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}): ${n.html.slice(0, 160)}: ${n.failureSummary ?? ''}`),
  );
}

const topOf = (page: Page, name: string) =>
  page
    .getByRole('heading', { name, exact: true })
    .evaluate((h) => h.getBoundingClientRect().top + window.scrollY);

test('the sections in order, the dangerous panel last, reached from the sub-navigation by keyboard', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'settings-sections');
  await page.goto('/dashboard?view=settings');
  const nav = page.getByRole('navigation', { name: 'Settings sections' });
  await expect(nav.getByRole('link')).toHaveText(SECTIONS);
  await expect(nav.getByRole('link', { name: 'Account' })).toHaveAttribute(
    'aria-current',
    'location',
  );

  // Each section is a region headed by its name, one below the other; 'Delete account' after all.
  const tops: number[] = [];
  for (const name of SECTIONS) {
    const region = page.getByRole('region', { name, exact: true });
    await expect(region.getByRole('heading', { name, level: 2 })).toBeVisible();
    tops.push(await topOf(page, name));
  }
  tops.push(await topOf(page, 'Delete account'));
  expect([...tops].sort((a, b) => a - b)).toEqual(tops);
  await expect(page.getByRole('heading', { name: 'Delete account', level: 2 })).toBeVisible();
  // Where people come for: the storage settings and the vaults, in their sections.
  await expect(
    page.getByRole('region', { name: 'Storage', exact: true }).getByRole('region', {
      name: 'Cloud Storage Settings',
    }),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Vaults', exact: true }).getByRole('region', {
      name: 'Vault Management',
    }),
  ).toBeVisible();

  // Keyboard: focus the Storage link, press Enter; the Storage section comes into view under the
  // top bar, the address keeps the place and the link is marked as the one being read.
  await nav.getByRole('link', { name: 'Storage' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/view=settings#settings-storage$/);
  const storage = page.getByRole('heading', { name: 'Storage', level: 2 });
  await expect(storage).toBeInViewport();
  await expect
    .poll(() => storage.evaluate((h) => h.getBoundingClientRect().top))
    .toBeGreaterThanOrEqual(64); // not under the sticky top bar
  await expect(nav.getByRole('link', { name: 'Storage' })).toHaveAttribute(
    'aria-current',
    'location',
  );
  // The next Tab goes on from the section reached, not back to the navigation.
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(
    () => document.activeElement?.closest('section[id^="settings-"]')?.id ?? null,
  );
  expect(['settings-storage', 'settings-vaults']).toContain(focused);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 360]) {
    test(`axe clean, ${scheme}, ${width} px wide, nothing sideways`, async ({
      page,
      request,
      baseURL,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await signedIn(page, request, baseURL!, `settings-axe-${scheme}-${width}`);
      await page.goto('/dashboard?view=settings');
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /^(?!.*dark)/);
      await expect(page.getByRole('navigation', { name: 'Settings sections' })).toBeVisible();
      expect(await violations(page)).toEqual([]);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
    });
  }
}
