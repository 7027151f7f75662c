// Asks the browser to confirm before the page is left or reloaded while `active` (an upload or a
// download in progress would be lost: its keys and state live only in this page).
import { useEffect } from 'react';

export function useLeaveGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const guard = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [active]);
}
