// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseTotp, totpNow } from './totp.ts';
import { useTotp } from './useTotp.ts';

const URI = parseTotp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').uri!;

describe('useTotp', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // 2.5 s before a period ends.
    vi.setSystemTime(1_000_047_500);
  });
  afterEach(() => vi.useRealTimers());

  it('shows the current code and counts down each second, turning over at the period', () => {
    const { result } = renderHook(() => useTotp(URI));
    const first = totpNow(URI, 1_000_047_500);
    expect(result.current).toEqual(first);
    expect(result.current?.secondsLeft).toBe(3);
    act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(result.current?.secondsLeft).toBe(2);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current).toEqual({ ...first, secondsLeft: 1 });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current?.secondsLeft).toBe(30);
    expect(result.current?.code).toBe(totpNow(URI, 1_000_050_000).code);
    expect(result.current?.code).not.toBe(first.code);
  });

  it('gives null without a URI or for one that does not parse', () => {
    expect(renderHook(() => useTotp(undefined)).result.current).toBeNull();
    expect(renderHook(() => useTotp('otpauth://totp/x')).result.current).toBeNull();
  });

  it('stops ticking once unmounted', () => {
    const { unmount } = renderHook(() => useTotp(URI));
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
