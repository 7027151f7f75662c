// Theme rules (docs/product.md §3 "Theme", §4): light or dark, stored under the key 'theme'. With nothing
// stored the system preference is followed, live; otherwise the stored value; light by default.
// public/theme-init.js applies the same rule before first paint; keep the two in step.

export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';
export const DARK_QUERY = '(prefers-color-scheme: dark)';

export function parseTheme(value: string | null | undefined): Theme | null {
  return value === 'light' || value === 'dark' ? value : null;
}

/** The stored choice wins; with nothing stored the system decides. */
export function resolveTheme(stored: Theme | null, systemPrefersDark: boolean): Theme {
  return stored ?? (systemPrefersDark ? 'dark' : 'light');
}

export const otherTheme = (theme: Theme): Theme => (theme === 'dark' ? 'light' : 'dark');

/** Reads the stored choice; storage may be unavailable (blocked cookies), which counts as none. */
export function readStoredTheme(storage: Pick<Storage, 'getItem'> | undefined): Theme | null {
  try {
    return parseTheme(storage?.getItem(THEME_STORAGE_KEY));
  } catch {
    return null;
  }
}

export function writeStoredTheme(
  storage: Pick<Storage, 'setItem'> | undefined,
  theme: Theme,
): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage blocked: the choice lasts for this page only.
  }
}

/** Puts the theme on <html>: the `dark` class drives Tailwind's dark variant. */
export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}
