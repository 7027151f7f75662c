// The actions of a dialog (Modal's `footer`): Cancel, then the one button that does the work.
// While the work runs the submit button shows its busy text and both are disabled, except a
// Cancel that stops the work (an upload).
import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/i18n.ts';
import { buttonClass } from './buttonStyles.ts';

export function DialogFooter({
  onCancel,
  cancelText,
  cancelDisabled,
  submit,
  busyText,
  busy = false,
  form,
  onSubmit,
  submitDisabled = false,
  tone = 'primary',
  icon,
  extra,
}: {
  onCancel: () => void;
  /** 'Cancel' unless the dialog says otherwise (the wizard's 'Back'). */
  cancelText?: string;
  /** Defaults to `busy`: work that runs cannot be walked away from by accident. */
  cancelDisabled?: boolean;
  /** The submit button's text; without it the footer has Cancel (and `extra`) only. */
  submit?: string;
  /** The submit button's text while `busy` ('Deleting...'). */
  busyText?: string;
  busy?: boolean;
  /** The id of the form the submit button submits; without it the button calls `onSubmit`. */
  form?: string;
  onSubmit?: () => void;
  submitDisabled?: boolean;
  /** 'danger' for what cannot be undone (deleting). */
  tone?: 'primary' | 'danger';
  icon?: ReactNode;
  /** Further actions, between Cancel and submit. */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        onClick={onCancel}
        disabled={cancelDisabled ?? busy}
        className={buttonClass('secondary')}
      >
        {cancelText ?? t('Cancel')}
      </button>
      {extra}
      {submit !== undefined && (
        <button
          type={form ? 'submit' : 'button'}
          form={form}
          onClick={form ? undefined : onSubmit}
          disabled={busy || submitDisabled}
          className={buttonClass(tone)}
        >
          {icon}
          {busy && busyText ? busyText : submit}
        </button>
      )}
    </>
  );
}
