import { describe, expect, it } from 'vitest';
import { forgetAccess, lastAccessedOf, recordAccess } from './lastAccessed.ts';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

describe('last accessed, on this device', () => {
  it('records, reads and forgets per vault', () => {
    const s = memoryStorage();
    expect(lastAccessedOf('v1', s)).toBeNull();
    recordAccess('v1', new Date('2026-11-24T10:00:00Z'), s);
    expect(lastAccessedOf('v1', s)).toBe('2026-11-24T10:00:00.000Z');
    expect(lastAccessedOf('v2', s)).toBeNull();
    forgetAccess('v1', s);
    expect(lastAccessedOf('v1', s)).toBeNull();
  });

  it('ignores a value that is not a date, and storage that throws', () => {
    const s = memoryStorage();
    s.setItem('sealvault:last-accessed:v1', 'nonsense');
    expect(lastAccessedOf('v1', s)).toBeNull();
    const broken = {
      ...memoryStorage(),
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(lastAccessedOf('v1', broken)).toBeNull();
    expect(() => recordAccess('v1', new Date(), broken)).not.toThrow();
  });
});
