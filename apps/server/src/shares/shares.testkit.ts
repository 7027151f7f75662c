// Share links for tests: request bodies as a browser would send them (random id and access
// token, opaque ciphertext the server cannot read anyway), and the calls of the owner's and the
// public routes.
import { createHash, randomBytes } from 'node:crypto';
import {
  ciphertextLength,
  SHARE_ACCESS_HEADER,
  SHARE_DOWNLOAD_HEADER,
  type CreateShareRequest,
} from '@sealvault/protocol';
import type { TestApp } from '../testing/harness.ts';
import { send } from '../testing/vaults.ts';

export const newShareId = () => randomBytes(16).toString('base64url');
export const newAccessToken = () => randomBytes(32).toString('base64url');
export const accessHashOf = (token: string) =>
  createHash('sha256').update(Buffer.from(token, 'base64url')).digest('hex');
const b64 = (n: number) => randomBytes(n).toString('base64');

export interface Made {
  body: CreateShareRequest;
  token: string;
}

type Over = Partial<Record<string, unknown>>;

/** A POST /api/shares body of `kind` with its access token; `over` replaces or adds fields. */
export function shareRequest(
  kind: 'file' | 'secret' | 'text',
  vaultId: string | null,
  over: Over = {},
): Made {
  const token = newAccessToken();
  const common = {
    id: newShareId(),
    access_hash: accessHashOf(token),
    enc_meta: b64(120),
    enc_note: b64(60),
    owner_key: b64(92),
    expires_in: '7d',
    max_opens: null,
  };
  const specific =
    kind === 'file'
      ? { kind, vault_id: vaultId, wrapped_key: b64(60), ciphertext_size: ciphertextLength(1000) }
      : kind === 'secret'
        ? { kind, vault_id: vaultId, payload: b64(600) }
        : { kind, payload: b64(300) };
  const body = Object.fromEntries(
    Object.entries({ ...common, ...specific, ...over }).filter(([, v]) => v !== undefined),
  ) as CreateShareRequest;
  return { body, token };
}

export const createShare = (t: TestApp, cookie: string, body: unknown) =>
  send(t, cookie, 'POST', '/api/shares', body);

/** Sends a file link's content with its Content-Length (in-process requests set none). */
export const putContent = (
  t: TestApp,
  cookie: string,
  id: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
) =>
  t.request(`/api/shares/${id}/content`, {
    method: 'PUT',
    headers: {
      cookie,
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.length),
      ...headers,
    },
    body: bytes,
  });

/** A request to the public routes, from the given client address, without a session. */
export function publicRequest(
  t: TestApp,
  path: string,
  opts: { method?: string; token?: string; download?: string; ip?: string; range?: string } = {},
) {
  const headers: Record<string, string> = { 'x-sealvault-client-ip': opts.ip ?? '203.0.113.9' };
  if (opts.token !== undefined) headers[SHARE_ACCESS_HEADER] = opts.token;
  if (opts.download !== undefined) headers[SHARE_DOWNLOAD_HEADER] = opts.download;
  if (opts.range !== undefined) headers.range = opts.range;
  return t.request(path, { method: opts.method ?? 'GET', headers });
}

/** A fresh client address per call, so that tests do not share a rate-limit budget. */
let addresses = 0;
export const freshIp = () => `2001:db8::${(++addresses).toString(16)}`;
