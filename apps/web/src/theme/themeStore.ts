// The app-wide theme state, as an external store for useSyncExternalStore. It listens to the
// system preference (followed only while nothing is stored) and to other tabs changing the
// stored choice. Browser objects are passed in so tests can supply fakes.
import {
  applyTheme,
  DARK_QUERY,
  readStoredTheme,
  resolveTheme,
  THEME_STORAGE_KEY,
  writeStoredTheme,
  type Theme,
} from './theme.ts';

export interface ThemeEnvironment {
  storage: Storage | undefined;
  media: MediaQueryList | undefined;
  root: HTMLElement;
  /** Where 'storage' events from other tabs arrive. */
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

export interface ThemeStore {
  /** The theme in effect now. */
  getTheme: () => Theme;
  /** Stores the choice; from then on the system preference no longer applies. */
  setTheme: (theme: Theme) => void;
  /** Calls the listener whenever the theme in effect changes; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
}

export function createThemeStore(env: ThemeEnvironment): ThemeStore {
  const listeners = new Set<() => void>();
  // The choice made on this page, in case storage is blocked and cannot keep it.
  let chosen: Theme | null = null;
  const compute = () =>
    resolveTheme(readStoredTheme(env.storage) ?? chosen, env.media?.matches ?? false);
  let theme = compute();
  applyTheme(env.root, theme);

  const refresh = () => {
    const next = compute();
    if (next === theme) return;
    theme = next;
    applyTheme(env.root, theme);
    listeners.forEach((l) => l());
  };
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === THEME_STORAGE_KEY) refresh();
  };

  return {
    getTheme: () => theme,
    setTheme: (next) => {
      chosen = next;
      writeStoredTheme(env.storage, next);
      refresh();
    },
    subscribe: (listener) => {
      if (listeners.size === 0) {
        env.media?.addEventListener('change', refresh);
        env.events.addEventListener('storage', onStorage);
        // A change while nothing listened (between the store's creation and the app's first
        // commit, which can come up to 500 ms after the first paint at /) is caught up now.
        refresh();
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          env.media?.removeEventListener('change', refresh);
          env.events.removeEventListener('storage', onStorage);
        }
      };
    },
  };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

let browserStore: ThemeStore | undefined;

/** The store for the real page, created on first use. */
export function getBrowserThemeStore(): ThemeStore {
  browserStore ??= createThemeStore({
    storage: safeLocalStorage(),
    media: typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : undefined,
    root: document.documentElement,
    events: window,
  });
  return browserStore;
}
