// The settings view (/dashboard?view=settings, docs/product.md §2): the Account section, then the spec's
// 'Cloud Storage Settings' and 'Vault Management', each its own section component.
import { AccountSection } from './AccountSection.tsx';
import { CloudStorageSettings } from './CloudStorageSettings.tsx';
import { IdleLockPanel } from './IdleLockPanel.tsx';
import { VaultManagement } from './VaultManagement.tsx';

export function SettingsView() {
  return (
    <div className="mx-auto max-w-3xl space-y-10">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
          Settings
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Your account, your storage providers and your vaults.
        </p>
      </div>
      <AccountSection />
      <CloudStorageSettings />
      <VaultManagement />
      <IdleLockPanel />
    </div>
  );
}
