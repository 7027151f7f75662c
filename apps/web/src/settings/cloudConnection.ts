// What a connect card in 'Cloud Storage Settings' shows for each state of its provider's
// connection (docs/product.md §2 "Settings view", §4 "Provider connection"): its heading, a status line, a
// message and the one action it offers. Connect is disabled while connecting; a failed
// connection is headed 'Connection Failed'. A provider this server has no client id for says so
// instead of offering a button that could not work.
import type { ConnectionStatus } from '../vaults/providers.tsx';

export interface CloudCardState {
  status: ConnectionStatus;
  /** Why the last connection failed ('failed' only), e.g. 'Failed to connect to Dropbox'. */
  error?: string | undefined;
}

export interface CloudCardAction {
  kind: 'connect' | 'disconnect';
  label: string;
  disabled: boolean;
}

export interface CloudCardView {
  heading: string;
  status: string;
  tone: 'muted' | 'neutral' | 'busy' | 'ok' | 'error';
  message: string;
  action: CloudCardAction | null;
}

export const CONNECTION_FAILED = 'Connection Failed';

/** The card of provider `name` in state `state`. */
export function cloudCardView(name: string, state: CloudCardState): CloudCardView {
  const connect = (disabled = false, label = 'Connect'): CloudCardAction => ({
    kind: 'connect',
    label,
    disabled,
  });
  switch (state.status) {
    case 'unavailable':
      return {
        heading: name,
        status: 'Not set up',
        tone: 'muted',
        message: `${name} is not set up on this server. Ask the administrator to configure it.`,
        action: null,
      };
    case 'disconnected':
      return {
        heading: name,
        status: 'Not connected',
        tone: 'neutral',
        message: `Connect your ${name} account to keep vaults there.`,
        action: connect(),
      };
    case 'connecting':
      return {
        heading: name,
        status: 'Connecting...',
        tone: 'busy',
        message: `Finish signing in to ${name} in the window that opened.`,
        action: connect(true, 'Connecting...'),
      };
    case 'connected':
      return {
        heading: name,
        status: 'Connected',
        tone: 'ok',
        message: `Your ${name} account is connected. Vaults you keep there store only encrypted files.`,
        action: { kind: 'disconnect', label: 'Disconnect', disabled: false },
      };
    case 'failed':
      return {
        heading: CONNECTION_FAILED,
        status: 'Not connected',
        tone: 'error',
        message: state.error ?? `Failed to connect to ${name}`,
        action: connect(),
      };
  }
}
