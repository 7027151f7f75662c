// /vault/:vaultId (spec §2 "Vault page"). The vault itself (unlock, files, secrets) arrives with
// the Vaults work, which replaces this component.
import { ArrowLeft, Lock } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { buttonClass } from '../../components/buttonStyles.ts';

export function VaultPage() {
  const { vaultId = '' } = useParams();
  return (
    <section className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <Lock aria-hidden="true" className="size-10 text-slate-400" />
      <h1 className="mt-4 text-xl font-semibold text-slate-900 dark:text-white">Vault</h1>
      <p className="mt-1 text-sm break-all text-slate-600 dark:text-slate-400">{vaultId}</p>
      <Link to="/dashboard" className={buttonClass('primary', 'md', 'mt-6')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Dashboard
      </Link>
    </section>
  );
}
