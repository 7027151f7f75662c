// Code a screen draws without, loaded when the user reaches for it (the pointer comes near, the
// focus arrives, a key or a press asks for it): the user menu's and the limit tooltip's Radix
// parts, which the dashboard's first screen does not need (issue 31). Once loaded it stays, so a
// later screen draws the real thing at once.
import { useCallback, useState } from 'react';

export interface DeferredModule<T> {
  /** The module if it has loaded. */
  now: () => T | undefined;
  /** Loads it (once; a failed load, e.g. offline, is tried again by the next call). */
  load: () => Promise<T>;
}

export function deferredModule<T>(importer: () => Promise<T>): DeferredModule<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    now: () => loaded,
    load: () =>
      (loading ??= importer().then(
        (m) => (loaded = m),
        (err: unknown) => {
          loading = undefined;
          throw err;
        },
      )),
  };
}

/**
 * The module once loaded (re-rendering then), and the function that asks for it. A failed load
 * leaves the placeholder in place; the next reach tries again.
 */
export function useDeferredModule<T>(mod: DeferredModule<T>): [T | undefined, () => void] {
  const [loaded, setLoaded] = useState(mod.now);
  const want = useCallback(() => {
    if (mod.now() !== undefined) {
      setLoaded(mod.now);
      return;
    }
    mod.load().then(
      (m) => setLoaded(() => m),
      () => undefined,
    );
  }, [mod]);
  return [loaded, want];
}
