// The dashboard's dialogs (create, delete and move a vault), loaded when first wanted: they are
// most of the dashboard's code (the wizard's forms and schemas, the move engine), and the list
// is drawn without them, so they stay off the first screen's critical path (issue 31, Lighthouse
// in bench/RESULTS.md). The list warms them as soon as the pointer or focus comes near it.
import { lazy, Suspense, useState } from 'react';
import type { Vault } from '@sealvault/protocol';

const CreateVaultWizard = lazy(async () => ({
  default: (await import('./CreateVaultWizard.tsx')).CreateVaultWizard,
}));
const DeleteVaultDialog = lazy(async () => ({
  default: (await import('./DeleteVaultDialog.tsx')).DeleteVaultDialog,
}));
const MoveVaultDialog = lazy(async () => ({
  default: (await import('./move/MoveVaultDialog.tsx')).MoveVaultDialog,
}));

export interface DashboardDialogsProps {
  /** Mount the dialogs (closed ones too, so that they animate as before once loaded). */
  wanted: boolean;
  creating: boolean;
  onCreatingChange: (open: boolean) => void;
  deleting: Vault | null;
  onDeleteClose: () => void;
  moving: Vault | null;
  onMoveClose: () => void;
}

export function DashboardDialogs(p: DashboardDialogsProps) {
  // Once mounted they stay, so that a dialog closing still animates out.
  const [mounted, setMounted] = useState(false);
  const wanted = p.wanted || p.creating || p.deleting !== null || p.moving !== null;
  if (wanted && !mounted) setMounted(true);
  if (!wanted && !mounted) return null;
  return (
    // Nothing in place while a dialog's code loads: it opens once it has (a few milliseconds
    // on a warm cache, one request otherwise).
    <Suspense fallback={null}>
      <CreateVaultWizard open={p.creating} onOpenChange={p.onCreatingChange} />
      <DeleteVaultDialog vault={p.deleting} onClose={p.onDeleteClose} />
      {p.moving && (
        <MoveVaultDialog
          vault={p.moving}
          open
          onOpenChange={(o) => {
            if (!o) p.onMoveClose();
          }}
        />
      )}
    </Suspense>
  );
}
