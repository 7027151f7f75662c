// quickXorHash against published vectors: the empty input's all-zero hash (Microsoft's docs), the
// table of rclone's independent Go implementation (backend/onedrive/quickxorhash/
// quickxorhash_test.go in github.com/rclone/rclone: random inputs in base64, their hashes) and
// the example of the Rust crate quickxorhash ("hello world").
import { describe, expect, it } from 'vitest';
import { QuickXorHash, quickXorHash } from './quickxor.ts';

const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

// [input in base64, quickXorHash in base64], from rclone's table (sizes 0-8, 12, 16, 20, 21, 64,
// 111 and 222: past 160 bytes the shift wraps around the 160-bit vector).
const VECTORS: [string, string][] = [
  ['', 'AAAAAAAAAAAAAAAAAAAAAAAAAAA='],
  ['Sg==', 'SgAAAAAAAAAAAAAAAQAAAAAAAAA='],
  ['tbQ=', 'taAFAAAAAAAAAAAAAgAAAAAAAAA='],
  ['0pZP', '0rDEEwAAAAAAAAAAAwAAAAAAAAA='],
  ['jRRDVA==', 'jaDAEKgAAAAAAAAABAAAAAAAAAA='],
  ['eAV52qE=', 'eChAHrQRCgAAAAAABQAAAAAAAAA='],
  ['luBZlaT6', 'lgBHFipBCn0AAAAABgAAAAAAAAA='],
  ['qaApEj66lw==', 'qQBFCiTgA11cAgAABwAAAAAAAAA='],
  ['/aNzzCFPS/A=', '/RjFHJgRgicsAR4ACAAAAAAAAAA='],
  ['h490d57Pqz5q2rtT', 'h3gEHe7giWeswgdq3MYupgAAAAA='],
  ['2fuxhBJXtpWFe8dOfdGeHw==', 'O9tHLAghgSvYohKFyMMxnNCHaHg='],
  ['T6LYJIfDh81JrAK309H2JMJTXis=', 'zBTHrspn3mEcohlJdIUAbjGNaNg='],
  ['DWAAX5/CIfrmErgZa8ot6ZraeSbu', 'LR2Z0PjuRYGKQB/mhQAuMrAGZbQ='],
  [
    'Mb7EGva2rEE5fENDL85P+BsapHEEjv2/siVhKjvAQe02feExVOQSkfmuYzU/kTF1MaKjPmKF/w+cbvwfdWL8aQ==',
    'n1anP5NfvD4XDYWIeRPW3ZkPv1Y=',
  ],
  [
    'jyibxJSzO6ZiZ0O1qe3tG/bvIAYssvukh9suIT5wEy1JBINVgPiqdsTW0cOpP0aUfP7mgqLfADkzI/m/GgCuVhr8oFLr' +
      'OCoTx1/psBOWwhltCbhUx51Icm9aH8tY4Z3ccU+6BKpYQkLCy0B/A9Zc',
    'hZfLIilSITC6N3e3tQ/iSgEzkto=',
  ],
  [
    'PfxMcUd0vIW6VbHG/uj/Y0W6qEoKmyBD0nYebEKazKaKG+UaDqBEcmQjbfQeVnVLuodMoPp7P7TR1htX5n2VnkHh22xD' +
      'yoJ8C/ZQKiSNqQfXvh83judf4RVr9exJCud8Uvgip6aVZTaPrJHVjQhMCp/dEnGvqg0oN5OVkM2qqAXvA0teKUDhgNM7' +
      '1sDBVBCGXxNOR2bpbD1iM4dnuT0ey4L+loXEHTL0fqMeUcEi2asgImnlNakwenDzz0x57aBwyq3AspCFGB1ncX4yYCr/' +
      'OaCcS5OKi/00WH+wNQU3',
    'QX/YEpG0gDsmhEpCdWhsxDzsfVE=',
  ],
];

describe('quickXorHash', () => {
  it.each(VECTORS)('hashes %s to the published %s', (input, expected) => {
    expect(quickXorHash(fromBase64(input))).toBe(expected);
  });

  it('matches the Rust crate quickxorhash on "hello world"', () => {
    const digest = new QuickXorHash().update(new TextEncoder().encode('hello world')).digest();
    expect([...digest]).toEqual([
      104, 40, 3, 27, 216, 240, 6, 16, 220, 225, 13, 114, 107, 3, 25, 0, 0, 0, 0, 0,
    ]);
  });

  it('gives the same hash whatever the pieces the input is fed in', () => {
    for (const [input, expected] of VECTORS) {
      const bytes = fromBase64(input);
      for (const step of [1, 3, 7, 20, 64]) {
        const h = new QuickXorHash();
        for (let at = 0; at < bytes.length; at += step) h.update(bytes.subarray(at, at + step));
        expect(h.base64(), `${input} in pieces of ${step}`).toBe(expected);
      }
    }
  });

  it('hashes 1 MiB in uneven pieces as in one piece, and a changed byte changes the hash', () => {
    const bytes = new Uint8Array(1024 * 1024);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 2_654_435_761) >>> 24;
    const whole = quickXorHash(bytes);
    const h = new QuickXorHash();
    for (let at = 0, step = 1; at < bytes.length; at += step, step = (step * 7 + 13) % 99_991) {
      h.update(bytes.subarray(at, at + step));
    }
    expect(h.base64()).toBe(whole);
    bytes[123_456] = bytes[123_456]! ^ 1;
    expect(quickXorHash(bytes)).not.toBe(whole);
  });
});
