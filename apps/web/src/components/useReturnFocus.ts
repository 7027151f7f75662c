// Focus back to where it was when a dialog opened. Radix does that only for a Dialog.Trigger, and
// our dialogs open from state (often with a field that takes the focus as it mounts), so a
// keyboard user would otherwise land on <body>, at the top of the page.
import { useEffect, useRef, type RefObject } from 'react';

/** The element that last had the focus outside any dialog. */
let lastFocusOutside: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (event) => {
      const t = event.target;
      if (t instanceof HTMLElement && !t.closest('[role="dialog"], [role="alertdialog"]')) {
        lastFocusOutside = t;
      }
    },
    true,
  );
}

/**
 * For a dialog that is `open`: the handler for Radix's onCloseAutoFocus that gives the focus back
 * to what had it when the dialog opened, if that is still on the page, else to `fallback`.
 */
export function useReturnFocus(
  open: boolean,
  fallback?: RefObject<HTMLElement | null>,
): (event: Event) => void {
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (open) opener.current = lastFocusOutside;
  }, [open]);
  return (event) => {
    const last = opener.current;
    opener.current = null;
    const el = last?.isConnected ? last : fallback?.current;
    if (el?.isConnected) {
      event.preventDefault();
      el.focus();
    }
  };
}
