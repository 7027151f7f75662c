import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { afterPaint } from './afterPaint.ts';

let report: (() => void) | undefined;
const disconnect = vi.fn();
class FakeObserver {
  static supportedEntryTypes = ['largest-contentful-paint'];
  constructor(callback: () => void) {
    report = callback;
  }
  observe = vi.fn();
  disconnect = disconnect;
}

beforeEach(() => {
  vi.useFakeTimers();
  report = undefined;
  disconnect.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const settled = (p: Promise<void>) => {
  const state = { done: false };
  void p.then(() => (state.done = true));
  return state;
};

it('goes on when the browser reports a largest paint, and stops listening', async () => {
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  const state = settled(afterPaint());
  await vi.advanceTimersByTimeAsync(100);
  expect(state.done).toBe(false);
  report?.();
  await vi.advanceTimersByTimeAsync(0);
  expect(state.done).toBe(true);
  expect(disconnect).toHaveBeenCalled();
});

it('goes on after 500 ms when no report comes', async () => {
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  const state = settled(afterPaint());
  await vi.advanceTimersByTimeAsync(499);
  expect(state.done).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(state.done).toBe(true);
});

it('goes on after 500 ms where there are no such reports', async () => {
  vi.stubGlobal('PerformanceObserver', { supportedEntryTypes: [] });
  const state = settled(afterPaint());
  await vi.advanceTimersByTimeAsync(500);
  expect(state.done).toBe(true);
});
