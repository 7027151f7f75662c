// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import { VaultSessionsProvider } from '../sessionContext.tsx';
import { createVaultSessions, SESSION_MS } from '../vaultSessions.ts';
import { createLockWatch, WARN_MS, type LockWatch } from './lockWatch.ts';
import { countdown, LockWarning } from './LockWarning.tsx';

let watch: LockWatch | undefined;
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
});
afterEach(() => {
  cleanup();
  watch?.dispose();
  watch = undefined;
  vi.useRealTimers();
});

function setup(idleMinutes: number) {
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  const w = createLockWatch(sessions, { idleMinutes });
  watch = w;
  render(
    <VaultSessionsProvider sessions={sessions}>
      <LockWarning watch={w} />
    </VaultSessionsProvider>,
  );
  act(() => void sessions.start('v', 'h' as SessionId));
  return sessions;
}

describe('lock warning', () => {
  it('formats the countdown in minutes and seconds', () => {
    expect(countdown(60_000)).toBe('1:00');
    expect(countdown(41_200)).toBe('0:42');
    expect(countdown(-5)).toBe('0:00');
  });

  it('appears before the idle lock with a ticking countdown and the focus on Keep unlocked', () => {
    const sessions = setup(5);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(4 * 60_000);
    });
    const dialog = screen.getByRole('alertdialog', { name: 'Locking soon: no activity' });
    expect(dialog.textContent).toContain('locks in 1:00');
    const keep = screen.getByRole('button', { name: 'Keep unlocked' });
    expect(document.activeElement).toBe(keep);
    act(() => {
      vi.advanceTimersByTime(18_000);
    });
    expect(dialog.textContent).toContain('locks in 0:42');

    fireEvent.click(keep);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sessions.isUnlocked('v')).toBe(true);
    act(() => {
      vi.advanceTimersByTime(4 * 60_000 - 1);
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('warns of the session end; Lock now locks at once', () => {
    const sessions = setup(0);
    act(() => {
      vi.advanceTimersByTime(SESSION_MS - WARN_MS);
    });
    expect(screen.getByRole('alertdialog', { name: 'Vault session ending' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Lock now' }));
    expect(sessions.isUnlocked('v')).toBe(false);
    expect(sessions.lockedBecause('v')).toBe('manual');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('goes away by itself when nobody answers and the vault locks', () => {
    const sessions = setup(1);
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(sessions.lockedBecause('v')).toBe('idle');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
