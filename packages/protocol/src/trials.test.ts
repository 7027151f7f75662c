import { describe, expect, it } from 'vitest';
import { vaultsWithinAllowance } from './trials.ts';

const vault = (id: string, vault_type: 'files' | 'secrets', created_at: string) => ({
  id,
  vault_type,
  created_at,
});

describe('vaultsWithinAllowance', () => {
  const vaults = [
    vault('c', 'files', '2026-01-03'),
    vault('a', 'secrets', '2026-01-02'),
    vault('d', 'secrets', '2026-01-04'),
    vault('b', 'files', '2026-01-01'),
  ];

  it('keeps the oldest file vault and the oldest secrets vault on Free', () => {
    const kept = vaultsWithinAllowance({ plan_id: 'free', max_vaults: 2 }, vaults);
    expect(kept.map((v) => v.id)).toEqual(['b', 'a']);
  });

  it('keeps the oldest max_vaults on other plans, and all when unlimited', () => {
    expect(
      vaultsWithinAllowance({ plan_id: 'basic', max_vaults: 3 }, vaults).map((v) => v.id),
    ).toEqual(['b', 'a', 'c']);
    expect(vaultsWithinAllowance({ plan_id: 'unlimited', max_vaults: -1 }, vaults)).toHaveLength(4);
  });

  it('breaks a tie of creation times by id, whatever the order it is given in', () => {
    const tied = [vault('y', 'files', '2026-01-01'), vault('x', 'files', '2026-01-01')];
    const limits = { plan_id: 'free', max_vaults: 2 } as const;
    expect(vaultsWithinAllowance(limits, tied).map((v) => v.id)).toEqual(['x']);
    expect(vaultsWithinAllowance(limits, [...tied].reverse()).map((v) => v.id)).toEqual(['x']);
  });
});
