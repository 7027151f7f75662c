// The current TOTP code of a login, kept fresh for its card (issue 20): re-rendered on each
// second's boundary so the countdown moves with the wall clock and the code turns over on time.
import { useEffect, useMemo, useState } from 'react';
import { totpNow, type TotpCode } from './totp.ts';

/**
 * The code of `uri` (a URI from parseTotp) now, ticking every second; null without a URI or for one
 * that no longer parses. `now` is the clock, replaceable in tests (conventions.md, "Shape").
 */
export function useTotp(
  uri: string | null | undefined,
  now: () => number = Date.now,
): TotpCode | null {
  const [nowMs, setNowMs] = useState(now);
  useEffect(() => {
    if (!uri) return;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const t = now();
      setNowMs(t);
      // To the next whole second, not every 1000 ms from whenever this started.
      timer = setTimeout(tick, 1000 - (t % 1000));
    };
    tick();
    return () => clearTimeout(timer);
  }, [uri, now]);
  return useMemo(() => {
    if (!uri) return null;
    try {
      return totpNow(uri, nowMs);
    } catch {
      return null;
    }
  }, [uri, nowMs]);
}
