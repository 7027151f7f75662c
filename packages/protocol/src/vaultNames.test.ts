import { expect, it } from 'vitest';
import { isVaultNameTaken, vaultNameKey } from './vaultNames.ts';

const vaults = [
  { id: 'a', name: 'Browser docs' },
  { id: 'b', name: 'Tax records' },
];

it('takes a name whatever its case and surrounding spaces', () => {
  expect(isVaultNameTaken(vaults, 'Browser docs')).toBe(true);
  expect(isVaultNameTaken(vaults, '  BROWSER DOCS ')).toBe(true);
  expect(isVaultNameTaken(vaults, 'Browser docs 2')).toBe(false);
  expect(vaultNameKey('Cafe\u0301')).toBe(vaultNameKey('Café'));
});

it('leaves out the vault being renamed', () => {
  expect(isVaultNameTaken(vaults, 'browser docs', 'a')).toBe(false);
  expect(isVaultNameTaken(vaults, 'tax records', 'a')).toBe(true);
});
