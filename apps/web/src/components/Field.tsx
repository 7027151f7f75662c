// A labelled form field with its error line, wired for assistive technology: the input gets
// aria-invalid and aria-describedby pointing at the error (and at an optional hint), and the error
// is announced when it appears (role=alert), so every invalid field says what is wrong with it.
import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';

interface FieldChildProps {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

export const labelClass = 'mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200';

export function Field({
  label,
  error,
  hint,
  children,
  labelAside,
  trailing,
}: {
  label: ReactNode;
  error?: string | undefined;
  hint?: string | undefined;
  /** The input; it receives id and the aria attributes. */
  children: ReactElement<FieldChildProps>;
  /** Shown at the end of the label row (for example a 'Forgot password?' link). */
  labelAside?: ReactElement;
  /** Buttons beside the input (for example 'Generate' next to a password). */
  trailing?: ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint && !error ? hintId : '', error ? errorId : '']
    .filter(Boolean)
    .join(' ');
  const input = cloneElement(children, {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  });
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className={labelClass}>
          {label}
        </label>
        {labelAside}
      </div>
      {trailing ? (
        <div className="flex gap-2">
          <div className="min-w-0 flex-1">{input}</div>
          {trailing}
        </div>
      ) : (
        input
      )}
      {hint && !error && (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** A success, error or information message above or below a form. */
export function FormMessage({
  kind,
  children,
}: {
  kind: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  const styles = {
    error:
      'border-red-200 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950/50 dark:text-red-200',
    success:
      'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900/60 dark:bg-emerald-950/50 dark:text-emerald-200',
    info: 'border-indigo-200 bg-indigo-50 text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950/50 dark:text-indigo-200',
  } as const;
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-3 py-2.5 text-sm ${styles[kind]}`}
    >
      {children}
    </div>
  );
}
