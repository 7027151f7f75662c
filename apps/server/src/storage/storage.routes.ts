// GET /api/storage-config (public): the cloud storage providers this server has configured, with
// their public client ids and base URLs, for the browser that talks to them (issue 16). Nothing
// secret: a client id is public by design (it appears in every sign-in address).
import { Hono } from 'hono';
import type { StorageConfigResponse } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';

export function storageConfigRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', (c) => {
    const { dropbox, googledrive, onedrive } = c.var.config.storage;
    return c.json({
      dropbox: dropbox && {
        app_key: dropbox.appKey,
        auth_url: dropbox.authUrl,
        api_url: dropbox.apiUrl,
        content_url: dropbox.contentUrl,
      },
      googledrive: googledrive && {
        client_id: googledrive.clientId,
        oauth_url: googledrive.oauthUrl,
        revoke_url: googledrive.revokeUrl,
        api_url: googledrive.apiUrl,
      },
      onedrive: onedrive && {
        client_id: onedrive.clientId,
        auth_url: onedrive.authUrl,
        token_url: onedrive.tokenUrl,
        graph_url: onedrive.graphUrl,
      },
    } satisfies StorageConfigResponse);
  });
}
