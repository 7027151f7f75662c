import { describe, expect, it } from 'vitest';
import {
  canCreateVault,
  canCreateVaultOfType,
  formatBytes,
  formatPlanSize,
  isFileSizeAllowed,
  storageUsage,
  vaultUsage,
} from './plans.ts';

describe('plan limits (-1 means unlimited)', () => {
  it('allows creating a vault only below max_vaults', () => {
    expect(canCreateVault(1, 2)).toBe(true);
    expect(canCreateVault(2, 2)).toBe(false);
    expect(canCreateVault(1000, -1)).toBe(true);
  });

  it('allows a file whose size in MB is within the limit', () => {
    expect(isFileSizeAllowed(2 * 1024 * 1024, 2)).toBe(true);
    expect(isFileSizeAllowed(2 * 1024 * 1024 + 1, 2)).toBe(false);
    expect(isFileSizeAllowed(50 * 1024 ** 3, -1)).toBe(true);
  });
});

describe('display', () => {
  it('shows plan sizes as Unlimited, MB, or GB from 1024 MB', () => {
    expect(formatPlanSize(-1)).toBe('Unlimited');
    expect(formatPlanSize(500)).toBe('500 MB');
    expect(formatPlanSize(1024)).toBe('1 GB');
    expect(formatPlanSize(1536)).toBe('1.5 GB');
  });

  it('shows byte sizes in steps of 1024 with one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GB');
  });

  it('colours the usage bar green below 70%, yellow from 70%, red from 90%, capped at 100%', () => {
    expect(vaultUsage(5, 10)).toEqual({ percent: 50, level: 'ok' });
    expect(vaultUsage(7, 10)).toEqual({ percent: 70, level: 'warning' });
    expect(vaultUsage(9, 10)).toEqual({ percent: 90, level: 'critical' });
    expect(vaultUsage(3, 2)).toEqual({ percent: 100, level: 'critical' });
    expect(vaultUsage(3, -1)).toEqual({ percent: 0, level: 'ok' });
  });

  it('colours the storage bar by the same rules, against max_storage_mb in MiB', () => {
    const MiB = 1024 * 1024;
    expect(storageUsage(0, 50)).toEqual({ percent: 0, level: 'ok' });
    expect(storageUsage(25 * MiB, 50)).toEqual({ percent: 50, level: 'ok' });
    expect(storageUsage(35 * MiB, 50)).toEqual({ percent: 70, level: 'warning' });
    expect(storageUsage(45 * MiB, 50)).toEqual({ percent: 90, level: 'critical' });
    expect(storageUsage(80 * MiB, 50)).toEqual({ percent: 100, level: 'critical' });
    expect(storageUsage(10 * 1024 * MiB, -1)).toEqual({ percent: 0, level: 'ok' });
    expect(storageUsage(1, 0)).toEqual({ percent: 100, level: 'critical' });
  });
});

describe('the Free plan: one vault of each type (spec §9)', () => {
  const free = { plan_id: 'free' as const, max_vaults: 2 };
  const basic = { plan_id: 'basic' as const, max_vaults: 10 };
  it('allows a type the user does not have yet, and nothing beyond max_vaults', () => {
    expect(canCreateVaultOfType(free, [], 'files')).toBe(true);
    expect(canCreateVaultOfType(free, [{ vault_type: 'files' }], 'files')).toBe(false);
    expect(canCreateVaultOfType(free, [{ vault_type: 'files' }], 'secrets')).toBe(true);
    const both = [{ vault_type: 'files' }, { vault_type: 'secrets' }];
    expect(canCreateVaultOfType(free, both, 'secrets')).toBe(false);
    expect(canCreateVaultOfType(basic, [{ vault_type: 'files' }], 'files')).toBe(true);
    expect(canCreateVaultOfType({ max_vaults: 2 }, [{ vault_type: 'files' }], 'files')).toBe(true);
  });
});
