// Import and export of a secrets vault (issue 20): the vault page's entry point to the transfer
// library in this folder. Two buttons, each opening its dialog.
import { Download, Upload } from 'lucide-react';
import { useState } from 'react';
import { buttonClass } from '../../components/buttonStyles.ts';
import { useTranslation } from '../../i18n/i18n.ts';
import { useVault } from '../../vaults/useVaults.ts';
import type { Secret } from '../model.ts';
import { ExportDialog } from './ExportDialog.tsx';
import { ImportDialog } from './ImportDialog.tsx';

export function TransferMenu({
  vaultId,
  secrets,
}: {
  vaultId: string;
  secrets: readonly Secret[];
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'import' | 'export' | null>(null);
  const vault = useVault(vaultId).data;
  return (
    <>
      <button type="button" onClick={() => setOpen('import')} className={buttonClass('secondary')}>
        <Upload aria-hidden="true" className="size-4" /> {t('Import')}
      </button>
      <button
        type="button"
        onClick={() => setOpen('export')}
        disabled={secrets.length === 0}
        className={buttonClass('secondary')}
      >
        <Download aria-hidden="true" className="size-4" /> {t('Export')}
      </button>
      <ImportDialog
        vaultId={vaultId}
        secrets={secrets}
        open={open === 'import'}
        onClose={() => setOpen(null)}
      />
      <ExportDialog
        vault={vault}
        secrets={secrets}
        open={open === 'export'}
        onClose={() => setOpen(null)}
      />
    </>
  );
}
