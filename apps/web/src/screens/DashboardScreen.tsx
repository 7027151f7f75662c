// /dashboard (docs/product.md §2): one of its views by the `view` query parameter (and, ours,
// `shares`: the user's share links, issue 29). The vault list is the view a visit starts on and
// comes with this screen; Settings, the subscription and the share links load when shown, so
// their code (forms, schemas, the storage providers' sign-in) does not delay the list (issue 31).
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { PageLoading } from '../RootLayout.tsx';
import { readDashboardView } from '../vaults/dashboardView.ts';
import { VaultDashboard } from '../vaults/VaultDashboard.tsx';

const SettingsView = lazy(async () => ({
  default: (await import('../settings/SettingsView.tsx')).SettingsView,
}));
const SubscriptionView = lazy(async () => ({
  default: (await import('../subscription/SubscriptionView.tsx')).SubscriptionView,
}));
const SharedLinksView = lazy(async () => ({
  default: (await import('../shares/SharedLinksView.tsx')).SharedLinksView,
}));

export function DashboardScreen() {
  const [search] = useSearchParams();
  const view = readDashboardView(search);
  if (view === 'dashboard') return <VaultDashboard />;
  return (
    <Suspense fallback={<PageLoading />}>
      {view === 'settings' && <SettingsView />}
      {view === 'subscription' && <SubscriptionView />}
      {view === 'shares' && <SharedLinksView />}
    </Suspense>
  );
}
