import { describe, expect, it } from 'vitest';
import { headersOf } from './xhr.ts';

describe('headersOf', () => {
  it('reads XMLHttpRequest response headers into fetch Headers, values with colons kept', () => {
    const h = headersOf(
      'content-type: application/json\r\nretry-after: 3\r\nx-date: Sat, 28 Nov 2026 09:00:00 GMT\r\n',
    );
    expect(h.get('Content-Type')).toBe('application/json');
    expect(h.get('retry-after')).toBe('3');
    expect(h.get('x-date')).toBe('Sat, 28 Nov 2026 09:00:00 GMT');
    expect([...h.keys()]).toHaveLength(3);
  });
  it('reads nothing from an empty header block', () => {
    expect([...headersOf('').keys()]).toEqual([]);
  });
});
