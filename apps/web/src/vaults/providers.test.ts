import { describe, expect, it } from 'vitest';
import {
  connectionLabel,
  needsConnection,
  providerChoice,
  providerDescription,
  providerConnection,
  selectableProviders,
  type ProviderEnv,
} from './providers.tsx';

const today: ProviderEnv = { opfs: true, configured: [], connected: [] };
const noOpfs: ProviderEnv = { ...today, opfs: false };

describe('provider availability', () => {
  it('keeps our server storage connected, and this browser where it has OPFS', () => {
    expect(providerConnection('server', noOpfs)).toBe('connected');
    expect(providerConnection('local', today)).toBe('connected');
    expect(connectionLabel('local', 'connected')).toBe('Available');
    expect(providerConnection('local', noOpfs)).toBe('unavailable');
    expect(connectionLabel('local', 'unavailable')).toBe('Not supported in this browser');
  });

  it('reads a cloud provider without a client id on this server as not set up', () => {
    for (const id of ['googledrive', 'dropbox', 'onedrive'] as const) {
      expect(providerConnection(id, today)).toBe('unavailable');
      expect(connectionLabel(id, 'unavailable')).toBe('Not set up on this server');
    }
  });

  it('reads a configured cloud provider as connected only once its account is', () => {
    const configured: ProviderEnv = { ...today, configured: ['dropbox'] };
    expect(providerConnection('dropbox', configured)).toBe('disconnected');
    expect(providerConnection('dropbox', { ...configured, connected: ['dropbox'] })).toBe(
      'connected',
    );
  });
});

describe('what the wizard offers', () => {
  it('offers our server storage, and this browser where it has OPFS', () => {
    expect(selectableProviders(today)).toEqual(['server', 'local']);
    expect(selectableProviders(noOpfs)).toEqual(['server']);
  });

  it('offers this browser to both kinds of vault, and says where each keeps its data', () => {
    expect(selectableProviders(today, 'secrets')).toEqual(['server', 'local']);
    expect(providerChoice('local', today, 'secrets')).toEqual({ selectable: true });
    expect(providerChoice('local', today, 'files')).toEqual({ selectable: true });
    expect(providerDescription('local', 'secrets')).toBe(
      'The secrets stay in this browser only and are lost if site data is cleared.',
    );
    expect(providerDescription('dropbox', 'secrets')).toBe(
      'Encrypted secrets in a SealVault folder of your Dropbox.',
    );
    expect(providerDescription('googledrive', 'files')).toBe(
      'Encrypted files in a SealVault folder of your Drive.',
    );
  });

  it('gives each provider it cannot offer a reason', () => {
    expect(providerChoice('googledrive', today)).toEqual({
      selectable: false,
      reason: 'Not set up on this server',
    });
    expect(providerChoice('dropbox', { ...today, configured: ['dropbox'] })).toEqual({
      selectable: false,
      reason: 'Not connected',
    });
    expect(
      providerChoice('dropbox', { ...today, configured: ['dropbox'], connected: ['dropbox'] }),
    ).toEqual({ selectable: true });
  });
});

describe('unlocking', () => {
  it('needs a connection for a cloud vault whose account is not connected', () => {
    expect(needsConnection('googledrive', today)).toBe(true);
    expect(needsConnection('onedrive', today)).toBe(true);
    expect(
      needsConnection('dropbox', { ...today, configured: ['dropbox'], connected: ['dropbox'] }),
    ).toBe(false);
    expect(needsConnection('server', today)).toBe(false);
    expect(needsConnection('local', noOpfs)).toBe(false);
  });
});
