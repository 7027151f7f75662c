// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  IDLE_STORAGE_KEY,
  readIdleMinutes,
  subscribeIdleMinutes,
  writeIdleMinutes,
} from './idleSettings.ts';

afterEach(() => localStorage.clear());

describe('idle lock setting', () => {
  it('is off until chosen, then kept in localStorage', () => {
    expect(readIdleMinutes()).toBe(0);
    writeIdleMinutes(5);
    expect(localStorage.getItem(IDLE_STORAGE_KEY)).toBe('5');
    expect(readIdleMinutes()).toBe(5);
    writeIdleMinutes(0);
    expect(localStorage.getItem(IDLE_STORAGE_KEY)).toBeNull();
  });

  it('reads anything but 1, 5 or 15 as off', () => {
    for (const v of ['7', 'abc', '-1', '1e9']) {
      localStorage.setItem(IDLE_STORAGE_KEY, v);
      expect(readIdleMinutes()).toBe(0);
    }
  });

  it('tells subscribers of a change here and in another tab', () => {
    const listener = vi.fn();
    const stop = subscribeIdleMinutes(listener);
    writeIdleMinutes(15);
    window.dispatchEvent(new StorageEvent('storage', { key: IDLE_STORAGE_KEY }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'something-else' }));
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    writeIdleMinutes(1);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
