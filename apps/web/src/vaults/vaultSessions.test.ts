import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import type { VaultKey } from '@sealvault/protocol';
import { createVaultSessions, SESSION_MS } from './vaultSessions.ts';

const handle = (n: number) => `session-${n}` as SessionId;
/** Keys whose lock is `forget`; unlock answers handle 1, or rejects for the password 'wrong'. */
const keysWith = (forget: (vaultId: string) => void = () => undefined) => ({
  unlock: vi.fn((_vaultId: string, _key: VaultKey, password: string) =>
    password === 'wrong'
      ? Promise.reject(new Error('Invalid password'))
      : Promise.resolve(handle(1)),
  ),
  lock: forget,
});
const key = { format: 'vf1', slots: [] } as unknown as VaultKey;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('vault sessions', () => {
  it('is unlocked for 30 minutes after unlock, then locked, removed and forgotten', () => {
    const forget = vi.fn();
    const s = createVaultSessions(keysWith(forget));
    s.start('v1', handle(1));
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
    const s = createVaultSessions(keysWith(forget), () => clock);
    s.start('v1', handle(1));
    clock = SESSION_MS;
    expect(s.isUnlocked('v1')).toBe(false);
    expect(forget).toHaveBeenCalledWith('v1');
  });

  it('locks by hand and on delete, telling subscribers each time', () => {
    const forget = vi.fn();
    const s = createVaultSessions(keysWith(forget));
    const listener = vi.fn();
    s.subscribe(listener);
    s.start('a', handle(1));
    s.start('b', handle(1));
    s.end('a');
    expect(s.isUnlocked('a')).toBe(false);
    expect(s.isUnlocked('b')).toBe(true);
    s.endAll();
    expect(s.isUnlocked('b')).toBe(false);
    expect(forget.mock.calls).toEqual([['a'], ['b']]);
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it('restarts the 30 minutes when a vault is unlocked again', () => {
    const s = createVaultSessions(keysWith());
    s.start('v', handle(1));
    vi.advanceTimersByTime(SESSION_MS - 1000);
    s.start('v', handle(1));
    vi.advanceTimersByTime(SESSION_MS - 1000);
    expect(s.isUnlocked('v')).toBe(true);
  });

  it('keeps the Worker handle of each open vault, and refuses it once the vault is locked', async () => {
    const forget = vi.fn();
    const keys = keysWith(forget);
    const s = createVaultSessions(keys);
    expect(() => s.handleOf('v')).toThrow('Vault is not unlocked');
    await expect(s.unlock('v', key, 'wrong')).rejects.toThrow('Invalid password');
    expect(s.isUnlocked('v')).toBe(false);
    const session = await s.unlock('v', key, 'right');
    expect(keys.unlock).toHaveBeenLastCalledWith('v', key, 'right');
    expect(session.handle).toBe(handle(1));
    expect(s.handleOf('v')).toBe(handle(1));
    vi.advanceTimersByTime(SESSION_MS);
    expect(() => s.handleOf('v')).toThrow('Vault is not unlocked');
    expect(forget).toHaveBeenCalledExactlyOnceWith('v');
  });

  it('lists the open sessions and remembers why each vault was last locked', () => {
    const s = createVaultSessions(keysWith());
    s.start('a', handle(1));
    s.start('b', handle(2));
    expect(s.list().map((x) => x.vaultId)).toEqual(['a', 'b']);
    expect(s.lockedBecause('a')).toBeNull();
    s.end('a');
    expect(s.lockedBecause('a')).toBe('manual');
    s.endAll('idle');
    expect(s.lockedBecause('b')).toBe('idle');
    expect(s.list()).toEqual([]);
    s.start('c', handle(3));
    vi.advanceTimersByTime(SESSION_MS);
    expect(s.lockedBecause('c')).toBe('expired');
  });
});
