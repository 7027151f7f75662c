// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createThemeStore } from './themeStore.ts';

/** A controllable prefers-color-scheme query. */
function fakeMedia(initiallyDark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: initiallyDark,
    addEventListener: (_: string, l: () => void) => void listeners.add(l),
    removeEventListener: (_: string, l: () => void) => void listeners.delete(l),
  };
  return {
    media: media as unknown as MediaQueryList,
    listenerCount: () => listeners.size,
    set(dark: boolean) {
      media.matches = dark;
      listeners.forEach((l) => l());
    },
  };
}

function setup(opts: { stored?: string; systemDark?: boolean } = {}) {
  localStorage.clear();
  if (opts.stored) localStorage.setItem('theme', opts.stored);
  const root = document.createElement('html');
  const system = fakeMedia(opts.systemDark ?? false);
  const store = createThemeStore({
    storage: localStorage,
    media: system.media,
    root,
    events: window,
  });
  return { store, root, system };
}

describe('theme store', () => {
  it('catches up on a system change made before anything subscribed', () => {
    const { store, root, system } = setup();
    system.set(true); // no listener yet: nothing is told
    expect(root.classList.contains('dark')).toBe(false);
    // React's useSyncExternalStore reads the snapshot again once subscribed.
    store.subscribe(() => undefined);
    expect(store.getTheme()).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);
  });

  it('defaults to light with nothing stored and a light system', () => {
    const { store, root } = setup();
    expect(store.getTheme()).toBe('light');
    expect(root.classList.contains('dark')).toBe(false);
  });

  it('starts dark when the system prefers dark and nothing is stored', () => {
    const { store, root } = setup({ systemDark: true });
    expect(store.getTheme()).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.style.colorScheme).toBe('dark');
  });

  it('keeps following live system changes while nothing is stored', () => {
    const { store, root, system } = setup();
    const listener = vi.fn();
    store.subscribe(listener);
    system.set(true);
    expect(store.getTheme()).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);
    system.set(false);
    expect(store.getTheme()).toBe('light');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('prefers the stored theme over the system and stops following it', () => {
    const { store, system } = setup({ stored: 'light', systemDark: true });
    store.subscribe(() => {});
    expect(store.getTheme()).toBe('light');
    system.set(false);
    system.set(true);
    expect(store.getTheme()).toBe('light');
  });

  it('stores the chosen theme and applies it', () => {
    const { store, root } = setup({ systemDark: true });
    const listener = vi.fn();
    store.subscribe(listener);
    store.setTheme('light');
    expect(localStorage.getItem('theme')).toBe('light');
    expect(store.getTheme()).toBe('light');
    expect(root.classList.contains('dark')).toBe(false);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('picks up a change made in another tab', () => {
    const { store } = setup();
    store.subscribe(() => {});
    localStorage.setItem('theme', 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark' }));
    expect(store.getTheme()).toBe('dark');
  });

  it('stops listening to the system when the last subscriber leaves', () => {
    const { store, system } = setup();
    const off = store.subscribe(() => {});
    expect(system.listenerCount()).toBe(1);
    off();
    expect(system.listenerCount()).toBe(0);
  });
});
