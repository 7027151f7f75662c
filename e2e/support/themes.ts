// Checking a screen in both themes without reloading it: the app follows the system preference
// live while no theme is stored (theme.spec.ts), so only the media emulation changes. Colour
// transitions are let finish before the check, so contrast is read on final colours, not on a
// button half-way from light to dark (which once failed the move dialog's axe check in CI).
import { expect, type Page } from '@playwright/test';

/** Emulates `scheme`, waits for the app to follow it and for colour transitions to end. */
export async function showScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  if (scheme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition) // not a spinner's endless animation
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * `check` of the screen as it is now, in the light and then the dark theme, back in light after;
 * each finding prefixed with its theme.
 */
export async function bothSchemes(
  page: Page,
  check: (scheme: 'light' | 'dark') => Promise<string[]>,
): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(page, scheme);
    found.push(...(await check(scheme)).map((p) => `${scheme}: ${p}`));
  }
  await showScheme(page, 'light');
  return found;
}
