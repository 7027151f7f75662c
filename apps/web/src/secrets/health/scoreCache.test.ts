import { describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import { createVaultSessions } from '../../vaults/vaultSessions.ts';
import { vaultScores } from './scoreCache.ts';

const sessionsWith = (...vaultIds: string[]) => {
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  for (const id of vaultIds) sessions.start(id, `h-${id}` as SessionId);
  return sessions;
};

describe('vaultScores', () => {
  it('keeps one set of scores per unlocked vault', () => {
    const sessions = sessionsWith('a', 'b');
    const a = vaultScores(sessions, 'a');
    a?.set('hash-1', 4);
    expect(vaultScores(sessions, 'a')).toBe(a);
    expect(vaultScores(sessions, 'a')?.get('hash-1')).toBe(4);
    expect(vaultScores(sessions, 'b')?.size).toBe(0);
  });

  it('keeps nothing for a locked vault', () => {
    expect(vaultScores(sessionsWith('a'), 'b')).toBeUndefined();
  });

  it('forgets a vault’s scores when it locks, and only that vault’s', () => {
    const sessions = sessionsWith('a', 'b');
    const a = vaultScores(sessions, 'a')!;
    a.set('hash-1', 1);
    vaultScores(sessions, 'b')!.set('hash-2', 2);
    sessions.end('a', 'idle');
    expect(vaultScores(sessions, 'a')).toBeUndefined();
    sessions.start('a', 'h-a2' as SessionId);
    const again = vaultScores(sessions, 'a');
    expect(again).not.toBe(a);
    expect(again?.size).toBe(0);
    expect(vaultScores(sessions, 'b')?.get('hash-2')).toBe(2);
  });

  it('forgets every vault’s scores at sign-out, and one that expired', () => {
    vi.useFakeTimers();
    try {
      const sessions = sessionsWith('a', 'b');
      vaultScores(sessions, 'a')!.set('hash-1', 1);
      vaultScores(sessions, 'b')!.set('hash-2', 2);
      sessions.endAll();
      sessions.start('a', 'h-a2' as SessionId);
      sessions.start('b', 'h-b2' as SessionId);
      expect(vaultScores(sessions, 'a')?.size).toBe(0);
      vaultScores(sessions, 'b')!.set('hash-2', 2);
      vi.advanceTimersByTime(31 * 60 * 1000);
      sessions.start('b', 'h-b3' as SessionId);
      expect(vaultScores(sessions, 'b')?.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
