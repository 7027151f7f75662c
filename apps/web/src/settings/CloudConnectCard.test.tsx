// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { CloudConnectCard } from './CloudConnectCard.tsx';

afterEach(cleanup);

it('says a provider that this server has not set up is unavailable, with no button', () => {
  render(<CloudConnectCard provider="googledrive" state={{ status: 'unavailable' }} />);
  expect(screen.getByRole('heading', { name: 'Google Drive' })).toBeTruthy();
  expect(
    screen.getByText(
      'Google Drive is not set up on this server. Ask the administrator to configure it.',
    ),
  ).toBeTruthy();
  expect(screen.queryByRole('button')).toBeNull();
});

it('connects when Connect is pressed', async () => {
  const onConnect = vi.fn();
  render(
    <CloudConnectCard
      provider="dropbox"
      state={{ status: 'disconnected' }}
      onConnect={onConnect}
    />,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Connect Dropbox' }));
  expect(onConnect).toHaveBeenCalledTimes(1);
});

it('disables Connect while connecting', async () => {
  const onConnect = vi.fn();
  render(
    <CloudConnectCard provider="dropbox" state={{ status: 'connecting' }} onConnect={onConnect} />,
  );
  const button = screen.getByRole('button', { name: 'Connecting... Dropbox' });
  expect((button as HTMLButtonElement).disabled).toBe(true);
  await userEvent.click(button);
  expect(onConnect).not.toHaveBeenCalled();
});

it('disconnects a connected account', async () => {
  const onDisconnect = vi.fn();
  render(
    <CloudConnectCard
      provider="googledrive"
      state={{ status: 'connected' }}
      onDisconnect={onDisconnect}
    />,
  );
  expect(screen.getByText('Connected')).toBeTruthy();
  expect(screen.queryByRole('button', { name: /^Connect/ })).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Disconnect Google Drive' }));
  expect(onDisconnect).toHaveBeenCalledTimes(1);
});

it("heads a failed connection 'Connection Failed' and offers Connect again", async () => {
  const onConnect = vi.fn();
  render(
    <CloudConnectCard
      provider="dropbox"
      state={{ status: 'failed', error: 'Failed to connect to Dropbox' }}
      onConnect={onConnect}
    />,
  );
  expect(screen.getByRole('heading', { name: 'Connection Failed' })).toBeTruthy();
  expect(screen.getByRole('alert').textContent).toBe('Failed to connect to Dropbox');
  await userEvent.click(screen.getByRole('button', { name: 'Connect Dropbox' }));
  expect(onConnect).toHaveBeenCalledTimes(1);
});

it('gives a failed card a Connect that looks as live as it is: enabled, a hand, nothing dimmed (issue 25)', () => {
  render(
    <CloudConnectCard
      provider="dropbox"
      state={{ status: 'failed', error: 'Failed to connect to Dropbox' }}
      onConnect={vi.fn()}
    />,
  );
  const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Connect Dropbox' });
  expect(button.disabled).toBe(false);
  const classes = button.className.split(/\s+/);
  expect(classes).toContain('enabled:cursor-pointer');
  expect(classes).toContain('bg-indigo-600'); // the primary button, as on a card not failed
  // Dimming belongs to a disabled button only.
  expect(classes.filter((c) => /opacity|grayscale/.test(c) && !c.startsWith('disabled:'))).toEqual(
    [],
  );
  expect(button.querySelector('svg')).not.toBeNull(); // a retry mark beside the label
});

it('follows the popup-blocked text with short steps to allow popups, per browser', () => {
  render(
    <CloudConnectCard
      provider="onedrive"
      state={{
        status: 'failed',
        error:
          'Authentication failed. The popup may have been blocked by your browser. Please allow popups for this site and try again.',
      }}
      onConnect={() => undefined}
    />,
  );
  expect(screen.getByRole('alert').textContent).toContain('Please allow popups for this site');
  const steps = screen.getByRole('list', { name: 'Allow popups' });
  expect([...steps.querySelectorAll('li')].map((li) => li.textContent?.split(':')[0])).toEqual([
    'Chrome and Edge',
    'Firefox',
    'Safari',
  ]);
  expect(screen.getByRole('button', { name: 'Connect OneDrive' })).toBeTruthy();
});

it('shows no popup steps for another failure', () => {
  render(
    <CloudConnectCard
      provider="onedrive"
      state={{ status: 'failed', error: 'OneDrive authentication failed.' }}
      onConnect={() => undefined}
    />,
  );
  expect(screen.queryByRole('list', { name: 'Allow popups' })).toBeNull();
});
