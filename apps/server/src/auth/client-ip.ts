// The client address that per-client limits key on (Better Auth's rate limits and the password
// attempt budget, [Note: password attempt budget] in attempts.ts).
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppEnv } from '../http/context.ts';

/** The header auth.routes.ts fills with the client address before Better Auth sees a request. */
export const CLIENT_IP_HEADER = 'x-sealvault-client-ip';

/**
 * The socket's peer when there is a socket (a client cannot choose it by sending the header), or
 * behind a reverse proxy the entry the proxy added to AUTH_CLIENT_IP_HEADER. In-process requests
 * (tests through app.request) have no socket and keep a CLIENT_IP_HEADER the test set, or count
 * as local.
 */
export function clientAddress(c: Context<AppEnv>): string {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    address = undefined;
  }
  const proxyHeader = c.var.config.auth.clientIpHeader;
  const forwarded = proxyHeader ? c.req.header(proxyHeader) : undefined;
  if (forwarded) address = forwarded.split(',').at(-1)?.trim() || address;
  return address ?? c.req.header(CLIENT_IP_HEADER) ?? '127.0.0.1';
}
