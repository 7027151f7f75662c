import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import { createVaultSessions, SESSION_MS } from '../vaultSessions.ts';
import { createLockWatch, idleWarnMs, WARN_MS, type LockWatch } from './lockWatch.ts';

const MIN = 60_000;
const handle = (n: number) => `session-${n}` as SessionId;

let forget: ReturnType<typeof vi.fn<(id: string) => void>>;
let watch: LockWatch | undefined;
const setup = (idleMinutes = 0, target?: EventTarget) => {
  forget = vi.fn<(id: string) => void>();
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: forget });
  watch = createLockWatch(sessions, { idleMinutes, ...(target ? { target } : {}) });
  return { sessions, watch };
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
});
afterEach(() => {
  watch?.dispose();
  vi.useRealTimers();
});

describe('idle lock', () => {
  it('locks every unlocked vault after the idle time, warning a minute before', () => {
    const { sessions, watch } = setup(5);
    sessions.start('a', handle(1));
    sessions.start('b', handle(2));
    vi.advanceTimersByTime(4 * MIN - 1);
    expect(watch.warning()).toBeNull();
    vi.advanceTimersByTime(1);
    expect(watch.warning()).toEqual({
      lockAt: Date.now() + WARN_MS,
      idle: true,
      vaultIds: ['a', 'b'],
    });
    vi.advanceTimersByTime(WARN_MS - 1);
    expect(sessions.isUnlocked('a')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(sessions.isUnlocked('a')).toBe(false);
    expect(sessions.isUnlocked('b')).toBe(false);
    expect(forget.mock.calls).toEqual([['a'], ['b']]);
    expect(sessions.lockedBecause('a')).toBe('idle');
    expect(watch.warning()).toBeNull();
  });

  it('restarts the idle time on input (pointer, key, wheel, touch) heard on the target', () => {
    const target = new EventTarget();
    const { sessions } = setup(1, target);
    sessions.start('a', handle(1));
    for (const type of ['pointermove', 'keydown', 'wheel', 'touchstart', 'pointerdown']) {
      vi.advanceTimersByTime(25_000);
      target.dispatchEvent(new Event(type));
    }
    // 125 s have passed, never 30 s without input: no warning, still unlocked.
    vi.advanceTimersByTime(29_000);
    expect(watch!.warning()).toBeNull();
    expect(sessions.isUnlocked('a')).toBe(true);
    vi.advanceTimersByTime(31_000);
    expect(sessions.isUnlocked('a')).toBe(false);
  });

  it('warns after half the time for the 1-minute lock', () => {
    expect(idleWarnMs(MIN)).toBe(30_000);
    expect(idleWarnMs(15 * MIN)).toBe(WARN_MS);
    const { sessions, watch } = setup(1);
    sessions.start('a', handle(1));
    vi.advanceTimersByTime(29_999);
    expect(watch.warning()).toBeNull();
    vi.advanceTimersByTime(1);
    expect(watch.warning()?.idle).toBe(true);
  });

  it('once the idle warning shows, input does not answer it; Keep unlocked does', () => {
    const { sessions, watch } = setup(5);
    sessions.start('a', handle(1));
    vi.advanceTimersByTime(4 * MIN + 30_000);
    expect(watch.warning()?.idle).toBe(true);
    watch.activity();
    vi.advanceTimersByTime(30_000);
    expect(sessions.isUnlocked('a')).toBe(false);

    sessions.start('a', handle(1));
    vi.advanceTimersByTime(4 * MIN + 30_000);
    watch.keepUnlocked();
    expect(watch.warning()).toBeNull();
    vi.advanceTimersByTime(4 * MIN - 1);
    expect(watch.warning()).toBeNull();
    expect(sessions.isUnlocked('a')).toBe(true);
  });

  it('is off by default and can be turned on and off', () => {
    const { sessions, watch } = setup();
    sessions.start('a', handle(1));
    vi.advanceTimersByTime(20 * MIN);
    expect(sessions.isUnlocked('a')).toBe(true);
    watch.setIdleMinutes(1);
    vi.advanceTimersByTime(MIN);
    expect(sessions.isUnlocked('a')).toBe(false);
    sessions.start('a', handle(1));
    watch.setIdleMinutes(0);
    vi.advanceTimersByTime(5 * MIN);
    expect(sessions.isUnlocked('a')).toBe(true);
  });

  it('counts from the unlock, not from input before any vault was open', () => {
    const { sessions } = setup(1);
    vi.advanceTimersByTime(10 * MIN);
    sessions.start('a', handle(1));
    expect(watch!.warning()).toBeNull();
    vi.advanceTimersByTime(59_000);
    expect(sessions.isUnlocked('a')).toBe(true);
  });

  it('locks late timers by the clock: a sleeping device locks at once on waking', () => {
    let clock = Date.now();
    forget = vi.fn();
    const sessions = createVaultSessions({ unlock: vi.fn(), lock: forget }, () => clock);
    watch = createLockWatch(sessions, { idleMinutes: 5, now: () => clock });
    sessions.start('a', handle(1));
    clock += 6 * MIN; // no timer fired while asleep
    vi.advanceTimersByTime(0);
    vi.runOnlyPendingTimers();
    expect(sessions.isUnlocked('a')).toBe(false);
  });
});

describe('session end warning', () => {
  it('warns a minute before the 30-minute end; Keep unlocked starts a new session', () => {
    const { sessions, watch } = setup();
    sessions.start('a', handle(7));
    vi.advanceTimersByTime(SESSION_MS - WARN_MS - 1);
    expect(watch.warning()).toBeNull();
    vi.advanceTimersByTime(1);
    const w = watch.warning();
    expect(w).toEqual({ lockAt: Date.now() + WARN_MS, idle: false, vaultIds: ['a'] });
    // Input does not extend a session.
    watch.activity();
    expect(watch.warning()).toBe(w);
    watch.keepUnlocked();
    expect(watch.warning()).toBeNull();
    expect(sessions.get('a')).toEqual({
      vaultId: 'a',
      handle: handle(7),
      expiresAt: Date.now() + SESSION_MS,
    });
    vi.advanceTimersByTime(SESSION_MS - WARN_MS);
    expect(watch.warning()?.vaultIds).toEqual(['a']);
    expect(forget).not.toHaveBeenCalled();
  });

  it('lets the session end when nobody answers, and names only the vaults that end', () => {
    const { sessions, watch } = setup();
    sessions.start('a', handle(1));
    vi.advanceTimersByTime(10 * MIN);
    sessions.start('b', handle(2));
    vi.advanceTimersByTime(SESSION_MS - 10 * MIN - WARN_MS);
    expect(watch.warning()?.vaultIds).toEqual(['a']);
    vi.advanceTimersByTime(WARN_MS);
    expect(sessions.isUnlocked('a')).toBe(false);
    expect(sessions.lockedBecause('a')).toBe('expired');
    expect(sessions.isUnlocked('b')).toBe(true);
    expect(watch.warning()).toBeNull();
  });

  it('shows whichever lock comes first when both are near', () => {
    const { sessions, watch } = setup(15);
    sessions.start('a', handle(1));
    vi.advanceTimersByTime(14 * MIN);
    expect(watch.warning()?.idle).toBe(true);
    watch.keepUnlocked();
    vi.advanceTimersByTime(6 * MIN);
    watch.activity();
    // 29 minutes in, input at 20: the session ends (30) before the idle lock (35).
    vi.advanceTimersByTime(9 * MIN);
    expect(watch.warning()).toMatchObject({ idle: false, vaultIds: ['a'] });
    vi.advanceTimersByTime(WARN_MS);
    expect(sessions.lockedBecause('a')).toBe('expired');
  });
});
