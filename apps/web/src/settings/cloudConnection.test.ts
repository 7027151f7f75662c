import { describe, expect, it } from 'vitest';
import { cloudCardView } from './cloudConnection.ts';

describe('a cloud connect card', () => {
  it('says the provider is not set up on this server, with no button', () => {
    const view = cloudCardView('Google Drive', { status: 'unavailable' });
    expect(view.heading).toBe('Google Drive');
    expect(view.message).toBe(
      'Google Drive is not set up on this server. Ask the administrator to configure it.',
    );
    expect(view.action).toBeNull();
  });

  it('offers Connect when not connected', () => {
    expect(cloudCardView('Dropbox', { status: 'disconnected' }).action).toEqual({
      kind: 'connect',
      label: 'Connect',
      disabled: false,
    });
  });

  it('disables Connect while connecting', () => {
    expect(cloudCardView('Dropbox', { status: 'connecting' }).action).toEqual({
      kind: 'connect',
      label: 'Connecting...',
      disabled: true,
    });
  });

  it('offers Disconnect once connected', () => {
    const view = cloudCardView('Dropbox', { status: 'connected' });
    expect(view.status).toBe('Connected');
    expect(view.action).toEqual({ kind: 'disconnect', label: 'Disconnect', disabled: false });
  });

  it("heads a failed connection 'Connection Failed' with the error and lets it try again", () => {
    const view = cloudCardView('Dropbox', {
      status: 'failed',
      error: 'Failed to connect to Dropbox',
    });
    expect(view.heading).toBe('Connection Failed');
    expect(view.message).toBe('Failed to connect to Dropbox');
    expect(view.action?.kind).toBe('connect');
    expect(cloudCardView('Google Drive', { status: 'failed' }).message).toBe(
      'Failed to connect to Google Drive',
    );
  });
});
