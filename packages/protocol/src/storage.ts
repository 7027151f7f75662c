// The cloud storage providers this server has configured (issue 16), for the browser, which talks
// to them itself: their public OAuth client ids and base URLs. Null: not configured here.
import { z } from 'zod';
import { requestJson } from './client.ts';

const url = z.url({ protocol: /^https?$/ });

export const storageConfigResponseSchema = z.object({
  dropbox: z
    .object({ app_key: z.string().min(1), auth_url: url, api_url: url, content_url: url })
    .nullable(),
  googledrive: z
    .object({ client_id: z.string().min(1), oauth_url: url, revoke_url: url, api_url: url })
    .nullable(),
  /** OneDrive (issue 26): the identity platform's authorize and token URLs, and Graph's origin. */
  onedrive: z
    .object({ client_id: z.string().min(1), auth_url: url, token_url: url, graph_url: url })
    .nullable(),
});
export type StorageConfigResponse = z.infer<typeof storageConfigResponseSchema>;

export const storageApi = {
  config: (f?: typeof fetch) =>
    requestJson(storageConfigResponseSchema, '/api/storage-config', {}, f),
};
