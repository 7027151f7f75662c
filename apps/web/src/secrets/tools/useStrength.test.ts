// @vitest-environment happy-dom
import { renderHook, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountInputs, scorePassword } from './strength.ts';
import { useStrength } from './useStrength.ts';

describe('useStrength', () => {
  // The engine's first load (its dictionaries) is slow on a busy machine: done before, not raced.
  beforeAll(() => scorePassword('warm-up'), 60_000);

  it('is null for an empty password', () => {
    expect(renderHook(() => useStrength('')).result.current).toBeNull();
  });

  it('scores the password against the inputs, and follows it as it changes', async () => {
    const inputs = accountInputs('alice@x.com', 'Alice Smith');
    const { result, rerender } = renderHook(({ pw }) => useStrength(pw, [...inputs]), {
      initialProps: { pw: 'alice2024!' },
    });
    await waitFor(() => expect(result.current).not.toBeNull(), { timeout: 10_000 });
    expect(result.current?.score).toBeLessThanOrEqual(1);
    expect(result.current?.warning).toContain('"alice"');
    rerender({ pw: 'k#8Vq!z2Lm@9Wx$e' });
    await waitFor(() => expect(result.current?.score).toBe(4), { timeout: 10_000 });
    expect(result.current?.warning).toBeNull();
    rerender({ pw: '' });
    expect(result.current).toBeNull();
  });
});
