// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { CloudStorageSettings } from './CloudStorageSettings.tsx';

afterEach(cleanup);

const rows = () =>
  within(screen.getByRole('region', { name: 'Available Providers' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

it('shows the spec headings, and a card per cloud service that says it is not set up', () => {
  render(<CloudStorageSettings env={{ opfs: true, configured: [], connected: [] }} />);
  for (const name of ['Cloud Storage Settings', 'How it works', 'Available Providers']) {
    expect(screen.getByRole('heading', { name })).toBeTruthy();
  }
  for (const name of ['Google Drive', 'Dropbox', 'OneDrive']) {
    const card = screen.getByRole('region', { name });
    expect(card.textContent).toContain(
      `${name} is not set up on this server. Ask the administrator to configure it.`,
    );
    expect(within(card).queryByRole('button')).toBeNull();
  }
});

it('lists every provider with its connected state', () => {
  render(<CloudStorageSettings env={{ opfs: true, configured: [], connected: [] }} />);
  expect(rows()).toEqual([
    'SealVault storageConnected',
    'This browserAvailable',
    'Google DriveNot set up on this server',
    'DropboxNot set up on this server',
    'OneDriveNot set up on this server',
  ]);
});

it('says this browser is not supported where it has no OPFS', () => {
  render(<CloudStorageSettings env={{ opfs: false, configured: [], connected: [] }} />);
  expect(rows()[1]).toBe('This browserNot supported in this browser');
});
