import { describe, expect, it } from 'vitest';
import { expiresIn, kdfFromWire, kdfToWire, opensLeft, secretOf, shareUrl } from './links.ts';

describe('share link words', () => {
  it('puts the secret in the fragment only, and reads it back', () => {
    const secret = 'QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8';
    const url = shareUrl('https://vault.example', 'oKGio6SlpqeoqaqrrK2urw', secret);
    expect(url).toBe(`https://vault.example/s/oKGio6SlpqeoqaqrrK2urw#${secret}`);
    expect(secretOf(new URL(url).hash)).toBe(secret);
    expect(secretOf('#short')).toBeNull();
    expect(secretOf('')).toBeNull();
    expect(secretOf(`#${secret}x`)).toBeNull();
  });

  it("writes the password's parameters as the server keeps them, and back", () => {
    const k = { alg: 'argon2id', m: 65536, t: 3, p: 1, salt: 'gIGCg4SFhoeIiYqLjI2Ojw' } as const;
    const wire = kdfToWire(k);
    expect(wire).toEqual({
      salt: 'gIGCg4SFhoeIiYqLjI2Ojw==',
      memory_kib: 65536,
      iterations: 3,
      parallelism: 1,
    });
    expect(kdfFromWire(wire)).toEqual(k);
    const slashy = { ...k, salt: '-_-_-_-_-_-_-_-_-_-_-w' };
    expect(kdfToWire(slashy).salt).toBe('+/+/+/+/+/+/+/+/+/+/+w==');
    expect(kdfFromWire(kdfToWire(slashy))).toEqual(slashy);
  });

  it('says how long a link has and how many opens', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(expiresIn('2026-11-27T11:00:00Z', now)).toBe('Expired');
    expect(expiresIn('2026-11-27T12:20:00Z', now)).toBe('Expires in less than an hour');
    expect(expiresIn('2026-11-27T13:00:00Z', now)).toBe('Expires in 1 hour');
    expect(expiresIn('2026-12-04T12:00:00Z', now)).toBe('Expires in 7 days');
    expect(opensLeft(null)).toBe('No limit on opens');
    expect(opensLeft(1)).toBe('1 open left');
    expect(opensLeft(3)).toBe('3 opens left');
  });
});
