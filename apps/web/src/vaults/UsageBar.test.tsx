// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { StorageUsageBar, UsageBar } from './UsageBar.tsx';

afterEach(cleanup);

const MiB = 1024 * 1024;
const storageBar = () => screen.getByRole('progressbar', { name: 'Storage usage' });
const fill = (bar: HTMLElement) => (bar.firstElementChild as HTMLElement).style.width;

it('shows the storage used against the quota, green below 70%', () => {
  render(<StorageUsageBar usedBytes={20 * MiB} maxMb={50} />);
  expect(screen.getByText('20.0 MB of 50 MB used')).toBeTruthy();
  expect(storageBar().getAttribute('aria-valuenow')).toBe('40');
  expect(storageBar().dataset.level).toBe('ok');
  expect(fill(storageBar())).toBe('40%');
});

it('turns yellow from 70% and red from 90%, and stops at full width past the quota', () => {
  const { rerender } = render(<StorageUsageBar usedBytes={35 * MiB} maxMb={50} />);
  expect(storageBar().dataset.level).toBe('warning');
  rerender(<StorageUsageBar usedBytes={45 * MiB} maxMb={50} />);
  expect(storageBar().dataset.level).toBe('critical');
  rerender(<StorageUsageBar usedBytes={80 * MiB} maxMb={50} />);
  expect(storageBar().dataset.level).toBe('critical');
  expect(storageBar().getAttribute('aria-valuenow')).toBe('100');
  expect(fill(storageBar())).toBe('100%');
});

it('names a quota of 1024 MB or more in GB, and an unlimited one without a bar', () => {
  const { rerender } = render(<StorageUsageBar usedBytes={0} maxMb={10_240} />);
  expect(screen.getByText('0 B of 10 GB used')).toBeTruthy();
  rerender(<StorageUsageBar usedBytes={3 * 1024 * MiB} maxMb={-1} />);
  expect(screen.getByText('3.0 GB used (Unlimited)')).toBeTruthy();
  expect(screen.queryByRole('progressbar')).toBeNull();
});

it('keeps the vault bar as it was', () => {
  render(<UsageBar count={7} max={10} />);
  const bar = screen.getByRole('progressbar', { name: 'Vault usage' });
  expect(bar.dataset.level).toBe('warning');
  expect(screen.getByText('7 of 10 vaults used')).toBeTruthy();
});
