// The idle lock's setting (issue 20): lock every unlocked vault after 1, 5 or 15 minutes without
// input, or never (the default). A choice of this device, kept in localStorage like the theme; it
// holds no secret. Other tabs hear of a change through the 'storage' event.

export const IDLE_CHOICES = [0, 1, 5, 15] as const;
/** Minutes without input before every vault locks; 0 is off. */
export type IdleMinutes = (typeof IDLE_CHOICES)[number];

export const IDLE_STORAGE_KEY = 'sealvault.idleLockMinutes';

const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked by the browser: the setting stays Off
  }
}

/** The stored choice; anything else (nothing stored, an old or edited value) reads as Off. */
export function readIdleMinutes(): IdleMinutes {
  const raw = Number(storage()?.getItem(IDLE_STORAGE_KEY) ?? 0);
  return (IDLE_CHOICES as readonly number[]).includes(raw) ? (raw as IdleMinutes) : 0;
}

export function writeIdleMinutes(minutes: IdleMinutes): void {
  const s = storage();
  if (minutes === 0) s?.removeItem(IDLE_STORAGE_KEY);
  else s?.setItem(IDLE_STORAGE_KEY, String(minutes));
  for (const l of listeners) l();
}

/** Calls `listener` when the choice changes here or in another tab; returns the unsubscribe. */
export function subscribeIdleMinutes(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === IDLE_STORAGE_KEY || e.key === null) listener();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}
