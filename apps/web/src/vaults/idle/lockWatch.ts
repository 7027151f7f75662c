// What comes before a vault locks (issue 20, item 7): the optional idle lock, and a warning one
// minute before any lock, the idle lock's or a session's 30-minute end (vaultSessions.ts).
// [Note: lock warning]
// - Input anywhere (pointer, key, wheel, touch) restarts the idle time. Once the idle warning
//   shows, input no longer does: only "Keep unlocked" does, so reaching for the button cannot
//   dismiss the warning under the pointer, and a lock never comes without one.
// - The warning comes WARN_MS before the lock, or half the idle time when that is shorter (the
//   1-minute idle lock warns after 30 seconds of quiet, then locks 30 seconds later).
// - "Keep unlocked" restarts the idle time and, for a vault whose session ends within the
//   warning, a new 30-minute session on the keys the Worker still holds.
// - When the idle time runs out every unlocked vault locks ('idle'); a session that runs out
//   ends by itself ('expired'). One timer, set for the next moment something changes, and the
//   clock (not the timer) decides, as a sleeping laptop fires timers late.
import type { VaultSessions } from '../vaultSessions.ts';

export const WARN_MS = 60_000;
const MINUTE_MS = 60_000;

/** The input that counts as activity. */
export const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'];

export interface LockWarning {
  /** When the first of `vaultIds` locks (ms since the epoch). */
  lockAt: number;
  /** The idle lock is what comes first: it locks every unlocked vault. */
  idle: boolean;
  /** The vaults that lock at `lockAt` (all unlocked ones for the idle lock). */
  vaultIds: string[];
}

export interface LockWatch {
  /** The warning to show now, or null. The same object until it changes. */
  warning: () => LockWarning | null;
  subscribe: (listener: () => void) => () => void;
  /** User input: restarts the idle time, unless the idle warning shows. */
  activity: () => void;
  /** The warning's button: restarts the idle time and every session ending within the warning. */
  keepUnlocked: () => void;
  /** Minutes without input before every vault locks; 0 turns the idle lock off. */
  setIdleMinutes: (minutes: number) => void;
  dispose: () => void;
}

export interface LockWatchOptions {
  idleMinutes?: number;
  now?: () => number;
  /** Where input is heard (the window in the app); none in tests that call `activity()`. */
  target?: EventTarget;
}

/** How long before the idle lock its warning shows. */
export const idleWarnMs = (idleMs: number) => Math.min(WARN_MS, idleMs / 2);

export function createLockWatch(
  sessions: VaultSessions,
  { idleMinutes = 0, now = () => Date.now(), target }: LockWatchOptions = {},
): LockWatch {
  let idleMs = idleMinutes * MINUTE_MS;
  let lastInput = now();
  let current: LockWarning | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  let anyOpen = false;

  const show = (next: LockWarning | null) => {
    const same =
      next === current ||
      (next !== null &&
        current !== null &&
        next.lockAt === current.lockAt &&
        next.idle === current.idle &&
        next.vaultIds.join() === current.vaultIds.join());
    if (same) return;
    current = next;
    for (const l of listeners) l();
  };

  const evaluate = () => {
    clearTimeout(timer);
    timer = undefined;
    const t = now();
    const open = sessions.list();
    if (open.length === 0) {
      anyOpen = false;
      show(null);
      return;
    }
    // The idle time counts from the first unlock at the latest.
    if (!anyOpen) lastInput = t;
    anyOpen = true;
    let next = Infinity;
    let idleLockAt: number | null = null;
    if (idleMs > 0) {
      const deadline = lastInput + idleMs;
      if (t >= deadline) {
        sessions.endAll('idle'); // its change notice evaluates again, finding nothing open
        return;
      }
      const warnAt = deadline - idleWarnMs(idleMs);
      if (t >= warnAt) idleLockAt = deadline;
      else next = warnAt;
      next = Math.min(next, deadline);
    }
    const ending = open.filter((s) => t >= s.expiresAt - WARN_MS);
    for (const s of open)
      if (t < s.expiresAt - WARN_MS) next = Math.min(next, s.expiresAt - WARN_MS);
    const sessionLockAt = Math.min(...ending.map((s) => s.expiresAt));
    if (idleLockAt !== null && idleLockAt <= sessionLockAt) {
      show({ lockAt: idleLockAt, idle: true, vaultIds: open.map((s) => s.vaultId).sort() });
    } else if (ending.length > 0) {
      const first = ending.filter((s) => s.expiresAt === sessionLockAt);
      show({ lockAt: sessionLockAt, idle: false, vaultIds: first.map((s) => s.vaultId).sort() });
    } else {
      show(null);
    }
    // A session's own timer ends it; its change notice brings us back.
    if (next !== Infinity) timer = setTimeout(evaluate, Math.max(0, next - t));
  };

  const activity = () => {
    if (current?.idle) return; // [Note: lock warning]: only "Keep unlocked" answers it
    lastInput = now();
  };
  const onVisible = () => {
    if (typeof document === 'undefined' || document.visibilityState === 'visible') evaluate();
  };

  const unsubscribe = sessions.subscribe(evaluate);
  for (const type of ACTIVITY_EVENTS) {
    target?.addEventListener(type, activity, { capture: true, passive: true });
  }
  target?.addEventListener('visibilitychange', onVisible);
  evaluate();

  return {
    warning: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    activity,
    keepUnlocked() {
      const t = now();
      lastInput = t;
      for (const s of sessions.list()) {
        if (t >= s.expiresAt - WARN_MS) sessions.start(s.vaultId, s.handle);
      }
      evaluate();
    },
    setIdleMinutes(minutes) {
      idleMs = minutes * MINUTE_MS;
      lastInput = now();
      evaluate();
    },
    dispose() {
      clearTimeout(timer);
      unsubscribe();
      for (const type of ACTIVITY_EVENTS) target?.removeEventListener(type, activity, true);
      target?.removeEventListener('visibilitychange', onVisible);
      listeners.clear();
    },
  };
}
