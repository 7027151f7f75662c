// /dashboard (docs/product.md §2): one of three views by the `view` query parameter.
import { useSearchParams } from 'react-router';
import { DashboardView } from './DashboardView.tsx';
import { readDashboardView } from './dashboardView.ts';
import { SettingsView } from './settings/SettingsView.tsx';
import { SubscriptionView } from './SubscriptionView.tsx';

export function DashboardScreen() {
  const [search] = useSearchParams();
  const view = readDashboardView(search);
  if (view === 'settings') return <SettingsView />;
  if (view === 'subscription') return <SubscriptionView />;
  return <DashboardView />;
}
