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
/**
 * A CSP host source for connect-src: a scheme, a host whose first label may be `*`, an optional
 * port (CSP Level 3, host-source), nothing else (no path, no quotes, no spaces).
 */
const cspSource = z
  .string()
  .regex(
    /^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/,
    'each host: https://host or https://*.domain, with an optional port',
  );

/**
 * Where OneDrive's upload and download URLs point (its content hosts, not Graph's): personal
 * accounts upload to *.up.1drv.com and download from *.files.1drv.com, *.livefilestore.com or
 * *.microsoftpersonalcontent.com; work and school accounts use their SharePoint host
 * (*.sharepoint.com); api.onedrive.com serves OneDrive's own API. ONEDRIVE_CONTENT_HOSTS adds
 * more (another national cloud, an emulator).
 */
export const ONEDRIVE_CONTENT_HOSTS = [
  'https://*.1drv.com',
  'https://*.files.1drv.com',
  'https://*.livefilestore.com',
  'https://*.microsoftpersonalcontent.com',
  'https://*.sharepoint.com',
  'https://api.onedrive.com',
];

export const storageEnv = {
  DROPBOX_APP_KEY: clientId.optional(),
  DROPBOX_AUTH_URL: url.default('https://www.dropbox.com/oauth2/authorize'),
  DROPBOX_API_URL: url.default('https://api.dropboxapi.com'),
  DROPBOX_CONTENT_URL: url.default('https://content.dropboxapi.com'),
  GOOGLE_DRIVE_CLIENT_ID: clientId.optional(),
  GOOGLE_OAUTH_URL: url.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_REVOKE_URL: url.default('https://oauth2.googleapis.com/revoke'),
  GOOGLE_DRIVE_API_URL: url.default('https://www.googleapis.com'),
  ONEDRIVE_CLIENT_ID: clientId.optional(),
  ONEDRIVE_AUTH_URL: url.default('https://login.microsoftonline.com/common/oauth2/v2.0/authorize'),
  ONEDRIVE_TOKEN_URL: url.default('https://login.microsoftonline.com/common/oauth2/v2.0/token'),
  ONEDRIVE_GRAPH_URL: url.default('https://graph.microsoft.com'),
  /** More content hosts of OneDrive uploads and downloads, for connect-src (space-separated). */
  ONEDRIVE_CONTENT_HOSTS: z
    .string()
    .trim()
    .default('')
    .transform((v) => v.split(/\s+/).filter(Boolean))
    .pipe(z.array(cspSource)),
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

export interface OneDriveConfig {
  clientId: string;
  authUrl: string;
  tokenUrl: string;
  /** Graph's origin, no trailing slash (the client adds /v1.0). */
  graphUrl: string;
  /** CSP sources of the content hosts: Microsoft's and ONEDRIVE_CONTENT_HOSTS. */
  contentHosts: string[];
}

export interface StorageConfig {
  dropbox: DropboxConfig | null;
  googledrive: GoogleDriveConfig | null;
  onedrive: OneDriveConfig | null;
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
    onedrive: e.ONEDRIVE_CLIENT_ID
      ? {
          clientId: e.ONEDRIVE_CLIENT_ID,
          authUrl: e.ONEDRIVE_AUTH_URL,
          tokenUrl: e.ONEDRIVE_TOKEN_URL,
          graphUrl: base(e.ONEDRIVE_GRAPH_URL),
          contentHosts: [...new Set([...ONEDRIVE_CONTENT_HOSTS, ...e.ONEDRIVE_CONTENT_HOSTS])],
        }
      : null,
  };
}

/**
 * The origins the browser must reach for the configured providers (the CSP's connect-src): their
 * API hosts only (OneDrive: its token endpoint, Graph, and the content hosts of its upload and
 * download URLs). The sign-in pages open in a popup (a navigation, not a fetch).
 */
export function providerOrigins(s: StorageConfig): string[] {
  const urls = [
    ...(s.dropbox ? [s.dropbox.apiUrl, s.dropbox.contentUrl] : []),
    ...(s.googledrive ? [s.googledrive.apiUrl, s.googledrive.revokeUrl] : []),
    ...(s.onedrive ? [s.onedrive.tokenUrl, s.onedrive.graphUrl] : []),
  ];
  return [...new Set([...urls.map((u) => new URL(u).origin), ...(s.onedrive?.contentHosts ?? [])])];
}
