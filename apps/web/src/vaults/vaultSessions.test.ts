import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createVaultSessions, SESSION_MS } from './vaultSessions.ts';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('vault sessions', () => {
  it('is unlocked for 30 minutes after unlock, then locked, removed and forgotten', () => {
    const forget = vi.fn();
    const s = createVaultSessions(forget);
    s.start('v1');
    vi.advanceTimersByTime(SESSION_MS - 1000);
    expect(s.isUnlocked('v1')).toBe(true);
    expect(forget).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(s.isUnlocked('v1')).toBe(false);
    expect(s.get('v1')).toBeNull();
    expect(forget).toHaveBeenCalledExactlyOnceWith('v1');
  });

  it('treats a session past its expiry as locked even if the timer has not fired', () => {
    let clock = 0;
    const forget = vi.fn();
    const s = createVaultSessions(forget, () => clock);
    s.start('v1');
    clock = SESSION_MS;
    expect(s.isUnlocked('v1')).toBe(false);
    expect(forget).toHaveBeenCalledWith('v1');
  });

  it('locks by hand and on delete, telling subscribers each time', () => {
    const forget = vi.fn();
    const s = createVaultSessions(forget);
    const listener = vi.fn();
    s.subscribe(listener);
    s.start('a');
    s.start('b');
    s.end('a');
    expect(s.isUnlocked('a')).toBe(false);
    expect(s.isUnlocked('b')).toBe(true);
    s.endAll();
    expect(s.isUnlocked('b')).toBe(false);
    expect(forget.mock.calls).toEqual([['a'], ['b']]);
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it('restarts the 30 minutes when a vault is unlocked again', () => {
    const s = createVaultSessions(() => undefined);
    s.start('v');
    vi.advanceTimersByTime(SESSION_MS - 1000);
    s.start('v');
    vi.advanceTimersByTime(SESSION_MS - 1000);
    expect(s.isUnlocked('v')).toBe(true);
  });
});
