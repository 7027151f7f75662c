// /dashboard (docs/product.md §2): one of its views by the `view` query parameter (and, ours,
// `shares`: the user's share links, issue 29).
import { useSearchParams } from 'react-router';
import { SettingsView } from '../settings/SettingsView.tsx';
import { SharedLinksView } from '../shares/SharedLinksView.tsx';
import { SubscriptionView } from '../subscription/SubscriptionView.tsx';
import { readDashboardView } from '../vaults/dashboardView.ts';
import { VaultDashboard } from '../vaults/VaultDashboard.tsx';

export function DashboardScreen() {
  const [search] = useSearchParams();
  const view = readDashboardView(search);
  if (view === 'settings') return <SettingsView />;
  if (view === 'subscription') return <SubscriptionView />;
  if (view === 'shares') return <SharedLinksView />;
  return <VaultDashboard />;
}
