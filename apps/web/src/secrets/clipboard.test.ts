import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyWithAutoClear, CLIPBOARD_CLEAR_MS, type ClipboardLike } from './clipboard.ts';

function fakeClipboard(): ClipboardLike & { value: string } {
  const c = {
    value: '',
    writeText: (t: string) => {
      c.value = t;
      return Promise.resolve();
    },
    readText: () => Promise.resolve(c.value),
  };
  return c;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('copy with auto-clear', () => {
  it('clears the clipboard after 30 seconds when it still holds the copied value', async () => {
    const cb = fakeClipboard();
    await copyWithAutoClear('s3cret', cb);
    expect(cb.value).toBe('s3cret');
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS - 1);
    expect(cb.value).toBe('s3cret');
    await vi.advanceTimersByTimeAsync(1);
    expect(cb.value).toBe('');
  });

  it('leaves something the user copied since alone', async () => {
    const cb = fakeClipboard();
    await copyWithAutoClear('s3cret', cb);
    await cb.writeText('other');
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS);
    expect(cb.value).toBe('other');
  });
});
