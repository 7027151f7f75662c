// Connect and Disconnect of the Settings cards (docs/product.md §4 "Provider connection": not connected,
// connecting, connected): one entry per cloud provider, the passing states in the connection
// store, and the spec's error texts (§8 "Cloud connections") for each way a connection fails.
import { connectDropbox, disconnectDropbox } from '../dropbox/auth.ts';
import { connectDrive, disconnectDrive } from '../googledrive/auth.ts';
import { connectOneDrive, disconnectOneDrive } from '../onedrive/auth.ts';
import { loadStorageConfig, storageConfigNow } from './config.ts';
import { connections, type CloudId } from './connections.ts';
import { ConnectError } from './popup.ts';
import { msg } from '../../i18n/i18n.ts';

export const connectTexts = {
  popupBlocked: msg(
    'Authentication failed. The popup may have been blocked by your browser. Please allow popups for this site and try again.',
  ),
  browserSettings: msg('Authentication failed. Please check your browser settings and try again.'),
  dropboxFailed: msg('Failed to connect to Dropbox'),
  dropboxAuthFailed: msg('Authentication failed. Please try again.'),
  driveFailed: msg('Failed to connect to Google Drive'),
  driveAuthFailed: msg('Google Drive authentication failed.'),
  driveNotInitialized: msg(
    'Failed to initialize Google Drive API. Please check your configuration.',
  ),
  // Ours, in the templates of the spec's Google Drive texts (issue 26).
  oneDriveFailed: msg('Failed to connect to OneDrive'),
  oneDriveAuthFailed: msg('OneDrive authentication failed.'),
};

/**
 * The spec's "steps to allow popups" that follow the popup-blocked text (§8 "Cloud connections");
 * their words are ours: one short line per browser.
 */
export const popupSteps: readonly { browser: string; step: string }[] = [
  {
    browser: msg('Chrome and Edge'),
    step: msg(
      'click the blocked-popup icon at the right of the address bar, choose "Always allow pop-ups and redirects" from this site, then Done.',
    ),
  },
  {
    browser: 'Firefox',
    step: msg(
      'click Options (Preferences) in the bar below the address bar, then "Allow pop-ups for" this site.',
    ),
  },
  {
    browser: 'Safari',
    step: msg('open Safari > Settings for This Website and set Pop-up Windows to Allow.'),
  },
];

/** The words for a failed connection of `id`. */
export function connectErrorText(id: CloudId, err: unknown): string {
  const kind = err instanceof ConnectError ? err.kind : 'failed';
  if (kind === 'blocked') return connectTexts.popupBlocked;
  if (id === 'dropbox') {
    return kind === 'closed' ? connectTexts.dropboxFailed : connectTexts.dropboxAuthFailed;
  }
  if (id === 'onedrive') {
    return kind === 'closed' ? connectTexts.oneDriveFailed : connectTexts.oneDriveAuthFailed;
  }
  return kind === 'closed' ? connectTexts.driveFailed : connectTexts.driveAuthFailed;
}

/** Runs the provider's sign-in; the card follows the store (connecting, then connected or failed). */
export async function connectCloud(id: CloudId): Promise<boolean> {
  connections.setPassing(id, { status: 'connecting' });
  try {
    const config = storageConfigNow() ?? (await loadStorageConfig());
    if (id === 'dropbox') {
      if (!config.dropbox) throw new ConnectError('failed', 'not configured');
      await connectDropbox(config.dropbox);
    } else if (id === 'onedrive') {
      if (!config.onedrive) throw new ConnectError('failed', 'not configured');
      await connectOneDrive(config.onedrive);
    } else {
      if (!config.googledrive) {
        connections.setPassing(id, { status: 'failed', error: connectTexts.driveNotInitialized });
        return false;
      }
      await connectDrive(config.googledrive);
    }
    return true;
  } catch (err) {
    connections.setPassing(id, { status: 'failed', error: connectErrorText(id, err) });
    return false;
  }
}

/** Signs out of the provider: revokes the token where it offers it, and forgets it here. */
export async function disconnectCloud(id: CloudId): Promise<void> {
  const config = storageConfigNow();
  if (id === 'dropbox') await disconnectDropbox(config?.dropbox ?? null);
  else if (id === 'onedrive') await disconnectOneDrive();
  else await disconnectDrive(config?.googledrive ?? null);
  connections.setPassing(id, null);
}
