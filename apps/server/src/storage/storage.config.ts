// The cloud storage providers' environment variables (issue 16): each is configured by its public
// OAuth client id (no secret: the browser is the OAuth client and talks to the provider itself;
// the server never holds a provider token and never relays provider traffic). Without its client
// id a provider is offered nowhere. The URLs exist so that tests can point the app at local
// emulators; they are validated here and handed to the browser by GET /api/storage-config.
import { z } from 'zod';

const clientId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._-]+$/, 'may only hold letters, digits, ".", "-" and "_"');
/** An absolute http(s) URL: https in production, http for an emulator on loopback. */
const url = z.url({ protocol: /^https?$/ });

export const storageEnv = {
  DROPBOX_APP_KEY: clientId.optional(),
  DROPBOX_AUTH_URL: url.default('https://www.dropbox.com/oauth2/authorize'),
  DROPBOX_API_URL: url.default('https://api.dropboxapi.com'),
  DROPBOX_CONTENT_URL: url.default('https://content.dropboxapi.com'),
  GOOGLE_DRIVE_CLIENT_ID: clientId.optional(),
  GOOGLE_OAUTH_URL: url.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_REVOKE_URL: url.default('https://oauth2.googleapis.com/revoke'),
  GOOGLE_DRIVE_API_URL: url.default('https://www.googleapis.com'),
};

type StorageEnv = z.infer<z.ZodObject<typeof storageEnv>>;

export interface DropboxConfig {
  appKey: string;
  authUrl: string;
  /** Origins, no trailing slash. */
  apiUrl: string;
  contentUrl: string;
}

export interface GoogleDriveConfig {
  clientId: string;
  oauthUrl: string;
  revokeUrl: string;
  /** Origin, no trailing slash. */
  apiUrl: string;
}

export interface StorageConfig {
  dropbox: DropboxConfig | null;
  googledrive: GoogleDriveConfig | null;
}

const base = (u: string) => u.replace(/\/+$/, '');

export function storageConfigFrom(e: StorageEnv): StorageConfig {
  return {
    dropbox: e.DROPBOX_APP_KEY
      ? {
          appKey: e.DROPBOX_APP_KEY,
          authUrl: e.DROPBOX_AUTH_URL,
          apiUrl: base(e.DROPBOX_API_URL),
          contentUrl: base(e.DROPBOX_CONTENT_URL),
        }
      : null,
    googledrive: e.GOOGLE_DRIVE_CLIENT_ID
      ? {
          clientId: e.GOOGLE_DRIVE_CLIENT_ID,
          oauthUrl: e.GOOGLE_OAUTH_URL,
          revokeUrl: e.GOOGLE_OAUTH_REVOKE_URL,
          apiUrl: base(e.GOOGLE_DRIVE_API_URL),
        }
      : null,
  };
}

/**
 * The origins the browser must reach for the configured providers (the CSP's connect-src): their
 * API hosts only. The sign-in pages open in a popup (a navigation, not a fetch).
 */
export function providerOrigins(s: StorageConfig): string[] {
  const urls = [
    ...(s.dropbox ? [s.dropbox.apiUrl, s.dropbox.contentUrl] : []),
    ...(s.googledrive ? [s.googledrive.apiUrl, s.googledrive.revokeUrl] : []),
  ];
  return [...new Set(urls.map((u) => new URL(u).origin))];
}
