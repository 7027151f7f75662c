// Confirms 'Switch to Free': with a paid period running it is scheduled for the period's end
// (docs/product.md §2 FAQ), otherwise it applies at once. Nothing is deleted either way; ending a trial this
// way leaves the vaults over Free's limit read-only ([Note: read-only after a trial], protocol).
import { useState } from 'react';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import type { Subscription } from '@sealvault/protocol';
import { formatDate } from '../i18n/format.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function SwitchToFreeDialog({
  open,
  subscription,
  planName,
  running,
  onConfirm,
  onClose,
}: {
  open: boolean;
  subscription: Subscription;
  planName: string;
  running: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [openedAt] = useState(() => Date.now());
  const end = subscription.current_period_end;
  const scheduled = end !== null && new Date(end).getTime() > openedAt;
  const onTrial = subscription.trial?.outcome === 'running';
  const when = end ? formatDate(end, { year: 'numeric', month: 'long', day: 'numeric' }) : '';
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onClose()}
      closable={!running}
      size="sm"
      title={t('Switch to Free?')}
      description={
        scheduled
          ? t(
              'You keep {{plan}} until {{date}}, the end of your billing period. Then your plan switches to Free.',
              { plan: planName, date: when },
            )
          : onTrial
            ? t('Your {{plan}} trial ends now and your plan switches to Free.', { plan: planName })
            : t('Your plan switches to Free now.')
      }
      footer={
        <DialogFooter
          onCancel={onClose}
          submit={t('Switch to Free')}
          busyText={t('Downgrading...')}
          busy={running}
          onSubmit={onConfirm}
        />
      }
    >
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {onTrial
          ? t(
              "Nothing is deleted. Vaults over the Free plan's limit become read-only: you can open them and download what they hold, but not change them.",
            )
          : t(
              'Nothing is deleted. If you have more vaults than the Free plan allows, they stay readable and usable; only creating new vaults is blocked.',
            )}
      </p>
    </Modal>
  );
}
