// A yes-or-no question before an admin action that is hard to undo (disable, delete, reset the
// second factor, end sessions): the Modal with Cancel and the action's own button.
import type { ReactNode } from 'react';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { FormMessage } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirm,
  busyText,
  busy,
  error,
  tone = 'danger',
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  children?: ReactNode;
  confirm: string;
  busyText: string;
  busy: boolean;
  error?: string | null;
  tone?: 'primary' | 'danger';
  onConfirm: () => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      size="sm"
      closable={!busy}
      footer={
        <DialogFooter
          onCancel={() => onOpenChange(false)}
          submit={confirm}
          busyText={busyText}
          busy={busy}
          tone={tone}
          onSubmit={onConfirm}
        />
      }
    >
      {children}
      {error && <FormMessage kind="error">{error}</FormMessage>}
    </Modal>
  );
}
