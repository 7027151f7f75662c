import { describe, expect, it } from 'vitest';
import {
  otherTheme,
  parseTheme,
  readStoredTheme,
  resolveTheme,
  writeStoredTheme,
} from './theme.ts';

describe('resolveTheme', () => {
  it('uses the stored choice whatever the system prefers', () => {
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('follows the system preference when nothing is stored', () => {
    expect(resolveTheme(null, true)).toBe('dark');
    expect(resolveTheme(null, false)).toBe('light');
  });
});

describe('parseTheme', () => {
  it('accepts only light and dark', () => {
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('Dark')).toBeNull();
    expect(parseTheme('system')).toBeNull();
    expect(parseTheme(null)).toBeNull();
    expect(parseTheme(undefined)).toBeNull();
  });
});

describe('stored theme', () => {
  const memoryStorage = () => {
    const map = new Map<string, string>();
    return {
      map,
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
  };

  it("writes and reads the key 'theme'", () => {
    const storage = memoryStorage();
    writeStoredTheme(storage, 'dark');
    expect(storage.map.get('theme')).toBe('dark');
    expect(readStoredTheme(storage)).toBe('dark');
  });

  it('ignores a value that is not a theme', () => {
    const storage = memoryStorage();
    storage.map.set('theme', 'purple');
    expect(readStoredTheme(storage)).toBeNull();
  });

  it('treats blocked storage as nothing stored and does not throw on write', () => {
    const blocked = {
      getItem: (): string | null => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: (): void => {
        throw new DOMException('blocked', 'SecurityError');
      },
    };
    expect(readStoredTheme(blocked)).toBeNull();
    expect(() => writeStoredTheme(blocked, 'dark')).not.toThrow();
    expect(readStoredTheme(undefined)).toBeNull();
  });
});

it('otherTheme flips light and dark', () => {
  expect(otherTheme('light')).toBe('dark');
  expect(otherTheme('dark')).toBe('light');
});
