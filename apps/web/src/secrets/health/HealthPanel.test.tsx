// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Secret } from '../model.ts';
import { HealthPanel } from './HealthPanel.tsx';
import { healthReport } from './useVaultHealth.ts';

afterEach(cleanup);

const secret = (id: string, title: string): Secret => ({
  id,
  title,
  username: '',
  password: 'x',
  url: '',
  notes: '',
  revision: 1,
  created_at: '2020-01-01T00:00:00Z',
  updated_at: '2020-01-01T00:00:00Z',
});
const secrets = [
  secret('a', 'Bank'),
  secret('b', 'Mail'),
  secret('c', 'Shop'),
  secret('d', 'Wifi'),
];

describe('health report', () => {
  it('names the findings by title and counts each secret once', () => {
    const report = healthReport(
      {
        weak: ['a', 'b'],
        reused: [{ passwordHash: 'h', ids: ['a', 'b'] }],
        old: ['a', 'c'],
      },
      secrets,
    );
    expect(report.weak).toEqual([
      { id: 'a', title: 'Bank' },
      { id: 'b', title: 'Mail' },
    ]);
    expect(report.reused).toEqual([
      [
        { id: 'a', title: 'Bank' },
        { id: 'b', title: 'Mail' },
      ],
    ]);
    expect(report.old.map((e) => e.title)).toEqual(['Bank', 'Shop']);
    expect(report.count).toBe(3);
  });

  it('drops ids no longer in the list, and a reuse group left with one secret', () => {
    const report = healthReport(
      { weak: ['gone'], reused: [{ passwordHash: 'h', ids: ['a', 'gone'] }], old: [] },
      secrets,
    );
    expect(report).toEqual({ weak: [], reused: [], old: [], count: 0 });
  });
});

describe('health panel', () => {
  it('lists each finding as a button that goes to its secret', async () => {
    const onReveal = vi.fn();
    const report = healthReport(
      { weak: ['d'], reused: [{ passwordHash: 'h', ids: ['a', 'b'] }], old: ['c'] },
      secrets,
    );
    render(<HealthPanel open onClose={vi.fn()} report={report} onReveal={onReveal} />);
    const weak = screen.getByRole('region', { name: /Weak passwords/ });
    expect(weak.textContent).toContain('Wifi');
    expect(screen.getByRole('region', { name: /Reused passwords/ }).textContent).toContain(
      'Shared by 2 secrets',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Shop' }));
    expect(onReveal).toHaveBeenCalledWith('c');
  });

  it('says so while checking and when all is well', () => {
    const { rerender } = render(
      <HealthPanel open onClose={vi.fn()} report={null} onReveal={vi.fn()} />,
    );
    expect(screen.getByRole('status').textContent).toContain('Checking your passwords');
    rerender(
      <HealthPanel
        open
        onClose={vi.fn()}
        report={{ weak: [], reused: [], old: [], count: 0 }}
        onReveal={vi.fn()}
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('No weak, reused or old passwords');
  });
});
