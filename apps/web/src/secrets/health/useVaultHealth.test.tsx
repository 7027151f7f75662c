// @vitest-environment happy-dom
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import { VaultSessionsProvider } from '../../vaults/sessionContext.tsx';
import { createVaultSessions } from '../../vaults/vaultSessions.ts';
import type { ScoreBatch } from '../tools/health.ts';
import type { Score } from '../tools/strength.ts';
import type { Secret } from '../model.ts';
import { useVaultHealth, type VaultHealthOptions } from './useVaultHealth.ts';

const secret = (id: string, password: string, revision = 1): Secret => ({
  id,
  title: id.toUpperCase(),
  username: '',
  password,
  url: '',
  notes: '',
  revision,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
});

describe('useVaultHealth', () => {
  it('computes once per change of the list, not per render of a new array', async () => {
    const score = vi.fn((p: string): Promise<Score> => Promise.resolve(p === 'weak' ? 0 : 4));
    const sha256 = (p: string) => Promise.resolve(`hash-${p}`);
    const options = { score, sha256 };
    const { result, rerender } = renderHook(({ list }) => useVaultHealth(list, options), {
      initialProps: { list: [secret('a', 'weak'), secret('b', 'strong'), secret('c', 'strong')] },
    });
    expect(result.current).toBeNull();
    await waitFor(() => expect(result.current).not.toBeNull());
    expect(result.current?.weak).toEqual([{ id: 'a', title: 'A' }]);
    expect(result.current?.reused.map((g) => g.map((e) => e.id))).toEqual([['b', 'c']]);
    expect(result.current?.count).toBe(3);
    expect(score).toHaveBeenCalledTimes(2);

    rerender({ list: [secret('a', 'weak'), secret('b', 'strong'), secret('c', 'strong')] });
    await new Promise((r) => setTimeout(r, 300));
    expect(score).toHaveBeenCalledTimes(2);

    rerender({ list: [secret('a', 'fine', 2), secret('b', 'strong'), secret('c', 'strong')] });
    await waitFor(() => expect(result.current?.weak).toEqual([]));
    expect(result.current?.count).toBe(2);
  });

  it('keeps the scores while its vault is unlocked: a rescan scores only the changed password', async () => {
    const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
    sessions.start('v', 'h' as SessionId);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <VaultSessionsProvider sessions={sessions}>{children}</VaultSessionsProvider>
    );
    const score = vi.fn((p: string): Promise<Score> => Promise.resolve(p === 'weak' ? 0 : 4));
    const options = { score, sha256: (p: string) => Promise.resolve(`hash-${p}`), vaultId: 'v' };
    const { result, rerender } = renderHook(({ list }) => useVaultHealth(list, options), {
      initialProps: { list: [secret('a', 'weak'), secret('b', 'strong'), secret('c', 'other')] },
      wrapper,
    });
    await waitFor(() => expect(result.current?.weak).toEqual([{ id: 'a', title: 'A' }]));
    expect(score).toHaveBeenCalledTimes(3);

    rerender({ list: [secret('a', 'fine', 2), secret('b', 'strong'), secret('c', 'other')] });
    await waitFor(() => expect(result.current?.weak).toEqual([]));
    expect(score.mock.calls.map(([p]) => p)).toEqual(['weak', 'strong', 'other', 'fine']);

    // Locked and unlocked again: nothing was kept.
    act(() => sessions.end('v'));
    act(() => void sessions.start('v', 'h2' as SessionId));
    rerender({ list: [secret('a', 'fine', 2), secret('b', 'weak', 2), secret('c', 'other')] });
    await waitFor(() => expect(result.current?.weak).toEqual([{ id: 'b', title: 'B' }]));
    expect(score.mock.calls.slice(4).map(([p]) => p)).toEqual(['fine', 'weak', 'other']);
  });

  it('lets a newer list wait for the batch in flight and reuse its scores', async () => {
    const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
    sessions.start('v', 'h' as SessionId);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <VaultSessionsProvider sessions={sessions}>{children}</VaultSessionsProvider>
    );
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const scoreBatch = vi.fn<ScoreBatch>(async (passwords) => {
      if (scoreBatch.mock.calls.length === 1) await held;
      return passwords.map((p) => (p === 'weak' ? 0 : 4));
    });
    const options: VaultHealthOptions = {
      scoreBatch,
      sha256: (p: string) => Promise.resolve(`hash-${p}`),
      vaultId: 'v',
    };
    const { result, rerender } = renderHook(({ list }) => useVaultHealth(list, options), {
      initialProps: { list: [secret('a', 'weak'), secret('b', 'strong')] },
      wrapper,
    });
    await waitFor(() => expect(scoreBatch).toHaveBeenCalledTimes(1));
    rerender({ list: [secret('a', 'weak'), secret('b', 'strong'), secret('c', 'new')] });
    await new Promise((r) => setTimeout(r, 300));
    expect(scoreBatch).toHaveBeenCalledTimes(1);
    release();
    await waitFor(() => expect(result.current).not.toBeNull());
    expect(result.current?.weak).toEqual([{ id: 'a', title: 'A' }]);
    expect(scoreBatch.mock.calls.map(([pws]) => pws)).toEqual([['weak', 'strong'], ['new']]);
  });
});
