// @vitest-environment jsdom
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
