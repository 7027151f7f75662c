import { expect, it } from 'vitest';
import { initials } from './UserMenu.tsx';

it('takes the initials of the full name', () => {
  expect(initials('Ada Lovelace', 'ada@example.com')).toBe('AL');
});

it('falls back to the e-mail address', () => {
  expect(initials(null, 'grace.hopper@example.com')).toBe('GH');
  expect(initials('  ', 'x@example.com')).toBe('XE');
});
