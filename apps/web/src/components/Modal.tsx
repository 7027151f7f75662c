// An accessible modal dialog (Radix Dialog: focus trap, Escape, aria wiring) in the app's style.
// `footer` holds the actions; the body scrolls when it is taller than the screen.
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from '../i18n/i18n.ts';
import { useReturnFocus } from './useReturnFocus.ts';

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  closable = true,
  fallbackFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** False while work runs that must not be interrupted (the dialog then ignores Escape). */
  closable?: boolean;
  /** Gets the focus on close when what opened the dialog is gone (a deleted item's button). */
  fallbackFocus?: RefObject<HTMLElement | null> | undefined;
}) {
  const { t } = useTranslation();
  const width = size === 'sm' ? 'max-w-md' : size === 'lg' ? 'max-w-2xl' : 'max-w-lg';
  const returnFocus = useReturnFocus(open, fallbackFocus);
  return (
    <Dialog.Root open={open} onOpenChange={(o) => (closable || o) && onOpenChange(o)}>
      <Dialog.Portal>
        {/* No backdrop blur: without a GPU the compositor redraws it on every progress update
            (1.7 s of CPU in a 512 MiB upload, bench/RESULTS.md). */}
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60" />
        <Dialog.Content
          onCloseAutoFocus={returnFocus}
          className={`fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] ${width} -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900`}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-5 dark:border-slate-800">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">
                {title}
              </Dialog.Title>
              {description ? (
                <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  {description}
                </Dialog.Description>
              ) : (
                <Dialog.Description className="sr-only">{title}</Dialog.Description>
              )}
            </div>
            {closable && (
              <Dialog.Close
                aria-label={t('Close')}
                className="-m-1 rounded-lg p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
              >
                <X aria-hidden="true" className="size-5" />
              </Dialog.Close>
            )}
          </div>
          <div className="overflow-y-auto px-6 py-5">{children}</div>
          {footer && (
            <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 px-6 py-4 dark:border-slate-800">
              {footer}
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
