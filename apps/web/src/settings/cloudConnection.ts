// What a connect card in 'Cloud Storage Settings' shows for each state of its provider's
// connection (docs/product.md §2 "Settings view", §4 "Provider connection"): its heading, a status line, a
// message and the one action it offers. Connect is disabled while connecting; a failed
// connection is headed 'Connection Failed'. A provider this server has no client id for says so
// instead of offering a button that could not work.
import { i18n, msg } from '../i18n/i18n.ts';
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

export const CONNECTION_FAILED = msg('Connection Failed');

/** The card of provider `name` in state `state`, in the language shown now. */
export function cloudCardView(name: string, state: CloudCardState): CloudCardView {
  const t = i18n.t.bind(i18n);
  const connect = (disabled = false, label = t('Connect')): CloudCardAction => ({
    kind: 'connect',
    label,
    disabled,
  });
  switch (state.status) {
    case 'unavailable':
      return {
        heading: name,
        status: t('Not set up'),
        tone: 'muted',
        message: t(
          '{{name}} is not set up on this server. Ask the administrator to configure it.',
          {
            name,
          },
        ),
        action: null,
      };
    case 'disconnected':
      return {
        heading: name,
        status: t('Not connected'),
        tone: 'neutral',
        message: t('Connect your {{name}} account to keep vaults there.', { name }),
        action: connect(),
      };
    case 'connecting':
      return {
        heading: name,
        status: t('Connecting...'),
        tone: 'busy',
        message: t('Finish signing in to {{name}} in the window that opened.', { name }),
        action: connect(true, t('Connecting...')),
      };
    case 'connected':
      return {
        heading: name,
        status: t('Connected'),
        tone: 'ok',
        message: t(
          'Your {{name}} account is connected. Vaults you keep there store only encrypted files.',
          { name },
        ),
        action: { kind: 'disconnect', label: t('Disconnect'), disabled: false },
      };
    case 'failed':
      return {
        heading: t(CONNECTION_FAILED),
        status: t('Not connected'),
        tone: 'error',
        message:
          state.error !== undefined ? t(state.error) : t('Failed to connect to {{name}}', { name }),
        action: connect(),
      };
  }
}
