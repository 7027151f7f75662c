// The dashboard view (spec §2 "Dashboard view"): the user's vaults. The vault grid, the
// 'Create New Vault' tile and the limits arrive with the Vaults work, which replaces this file.
import { FolderLock } from 'lucide-react';
import { useProfile } from '../../auth/useAccount.ts';

export function DashboardView() {
  const profile = useProfile();
  const first = profile.data?.full_name?.trim().split(/\s+/)[0];
  return (
    <section aria-labelledby="vaults-title">
      <h1
        id="vaults-title"
        className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white"
      >
        Your vaults
      </h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {first ? `Welcome, ${first}. ` : ''}Everything in a vault is encrypted on this device before
        it is stored.
      </p>
      <div className="mt-8 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center dark:border-slate-700 dark:bg-slate-900">
        <span className="inline-flex size-12 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
          <FolderLock aria-hidden="true" className="size-6" />
        </span>
        <h2 className="mt-4 font-semibold text-slate-900 dark:text-white">No vaults yet</h2>
        <p className="mt-1 max-w-sm text-sm text-slate-600 dark:text-slate-400">
          Your file and secrets vaults will appear here.
        </p>
      </div>
    </section>
  );
}
