// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { DownloadsPanel } from './DownloadsPanel.tsx';

afterEach(cleanup);

it('shows each download with its progress and a Cancel that cancels that one', async () => {
  const cancel = vi.fn();
  const other = vi.fn();
  render(
    <DownloadsPanel
      downloads={[
        { id: 'a', name: 'scans.zip', percent: 42, cancel },
        { id: 'b', name: 'film.mp4', percent: null, cancel: other },
      ]}
    />,
  );
  const list = screen.getByRole('list', { name: 'Downloads' });
  const [first, second] = within(list).getAllByRole('listitem');
  expect(first!.textContent).toContain('Downloading scans.zip...');
  expect(first!.textContent).toContain('42%');
  const bar = within(first!).getByRole('progressbar', { name: 'Download progress of scans.zip' });
  expect(bar.getAttribute('value')).toBe('42');
  await userEvent.click(screen.getByRole('button', { name: 'Cancel download of scans.zip' }));
  expect(cancel).toHaveBeenCalledTimes(1);
  // The browser's own downloads show this one: no percent, and no Cancel it could not honour.
  expect(second!.textContent).toContain('Downloading film.mp4...');
  expect(second!.textContent).not.toContain('%');
  expect(within(second!).queryByRole('progressbar')).toBeNull();
  expect(within(second!).queryByRole('button')).toBeNull();
  expect(other).not.toHaveBeenCalled();
});

it('renders no list when nothing is downloading', () => {
  render(<DownloadsPanel downloads={[]} />);
  expect(screen.queryByRole('list', { name: 'Downloads' })).toBeNull();
});
