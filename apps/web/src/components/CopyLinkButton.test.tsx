// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { CopyLinkButton } from './CopyLinkButton.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

it('copies the link, says Copied, and says Copy link again for another link', async () => {
  const user = userEvent.setup();
  const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
  const heard: boolean[] = [];
  const { rerender } = render(
    <CopyLinkButton url="https://x.test/a" onResult={(ok) => heard.push(ok)} />,
  );
  await user.click(screen.getByRole('button', { name: 'Copy link' }));
  expect(writeText).toHaveBeenCalledWith('https://x.test/a');
  expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
  expect(heard).toEqual([true]);
  rerender(<CopyLinkButton url="https://x.test/b" onResult={(ok) => heard.push(ok)} />);
  expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
});

it('tells a refused copy and stays on Copy link', async () => {
  const user = userEvent.setup();
  vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
  const heard: boolean[] = [];
  render(<CopyLinkButton url="https://x.test/a" onResult={(ok) => heard.push(ok)} />);
  await user.click(screen.getByRole('button', { name: 'Copy link' }));
  await vi.waitFor(() => expect(heard).toEqual([false]));
  expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
});
