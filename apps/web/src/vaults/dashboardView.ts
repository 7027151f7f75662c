// The views /dashboard shows by its `view` query parameter (docs/product.md §2); dashboard is the default.
export type DashboardViewName = 'dashboard' | 'subscription' | 'settings' | 'shares';

export function readDashboardView(search: URLSearchParams): DashboardViewName {
  const view = search.get('view');
  return view === 'subscription' || view === 'settings' || view === 'shares' ? view : 'dashboard';
}
