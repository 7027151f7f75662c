// The app's toasts (sonner, apps/web/src/components/Toaster.tsx): the transient success and
// failure messages, in sonner's 'Notifications' live region.
import type { Page } from '@playwright/test';

/** Every toast on the page. */
export const toasts = (page: Page) =>
  page.getByRole('region', { name: /^Notifications/ }).getByRole('listitem');

/** The toasts that report a failure. */
export const errorToasts = (page: Page) => toasts(page).and(page.locator('[data-type="error"]'));
