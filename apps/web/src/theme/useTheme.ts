// React access to the theme: the current value, plus setters that store the choice.
import { useCallback, useSyncExternalStore } from 'react';
import { otherTheme, type Theme } from './theme.ts';
import { getBrowserThemeStore, type ThemeStore } from './themeStore.ts';

export interface UseTheme {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

export function useTheme(store: ThemeStore = getBrowserThemeStore()): UseTheme {
  const theme = useSyncExternalStore(store.subscribe, store.getTheme, store.getTheme);
  const toggleTheme = useCallback(() => store.setTheme(otherTheme(store.getTheme())), [store]);
  return { theme, setTheme: store.setTheme, toggleTheme };
}
