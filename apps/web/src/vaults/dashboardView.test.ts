import { expect, it } from 'vitest';
import { readDashboardView } from './dashboardView.ts';

it('reads the view from the query string, defaulting to the dashboard', () => {
  expect(readDashboardView(new URLSearchParams(''))).toBe('dashboard');
  expect(readDashboardView(new URLSearchParams('view=settings'))).toBe('settings');
  expect(readDashboardView(new URLSearchParams('view=subscription'))).toBe('subscription');
  expect(readDashboardView(new URLSearchParams('view=admin'))).toBe('dashboard');
  expect(readDashboardView(new URLSearchParams('view=shares'))).toBe('shares');
});
