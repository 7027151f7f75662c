// @vitest-environment jsdom
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Score } from '../tools/strength.ts';
import type { Secret } from '../model.ts';
import { useVaultHealth } from './useVaultHealth.ts';

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
});
