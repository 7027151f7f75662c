// A OneDrive emulator for tests (issue 26): the Microsoft identity platform's v2.0 endpoints, the
// part of Microsoft Graph v1.0 a browser vault uses on a personal drive's app folder, and the
// content hosts of uploads and downloads. Test tooling only: state lives in memory, nothing
// reaches the internet. Two node:http servers on 127.0.0.1: `origin` answers the identity platform
// (/common/oauth2/v2.0/authorize, /token) and Graph (/v1.0/...), and `contentOrigin`, addressed as
// localhost so that it is another host as well as another port, answers upload URLs (/up/...) and
// download URLs (/dl/...), as *.up.1drv.com and *.files.1drv.com do for OneDrive.
//
// Written from Microsoft's public references: OneDrive's API docs (github.com/OneDrive/
// onedrive-api-docs: resources driveItem, drive, quota, uploadSession; api driveitem_get,
// driveitem_list_children, driveitem_post_children, driveitem_update, driveitem_delete,
// driveitem_get_content, driveitem_put_content, driveitem_createuploadsession,
// drive_get_specialfolder; concepts addressing-driveitems, errors, special-folders-appfolder),
// Graph's throttling guidance (429/503 with Retry-After) and the identity platform's auth code
// flow. The pieces: onedrive-identity.ts (OAuth), onedrive-graph.ts (Graph's routes),
// onedrive-store.ts (items), onedrive-upload.ts (sessions, downloads), onedrive-control.ts (the
// control API, faults), onedrive-http.ts (replies, Graph's error shape), quickxor.ts.
// onedrive.test.ts drives it with fetch and with Microsoft's own @microsoft/microsoft-graph-client.
//
// Scopes are enforced as Graph does for a personal account: Files.ReadWrite.AppFolder reaches the
// app folder (/Apps/{app}) and the drive's quota only, 403 accessDenied elsewhere. Absolute URLs
// it answers (@odata.nextLink, uploadUrl, downloadUrl) use https when the request came with
// `X-Forwarded-Proto: https`, so that a client that speaks only https can sit behind a TLS shim.
//
// [Note: emulator controls] /__emulator/* is an unauthenticated JSON control API for tests, as
// in dropbox.ts; the table is above `control` below.
//
// Not emulated: work and school accounts, tenants other than /common, client and redirect URI
// registration (any client_id, any https or loopback redirect), id tokens, delta, search,
// thumbnails, versions, sharing, copy, the recycle bin, $select/$expand/$orderby (accepted and
// ignored; children come sorted by name), more than one app folder (one `appFolderName` for all
// clients), and throttling itself (429 and 503 come only from injected faults).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { control, takeFault } from './onedrive-control.ts';
import { graph, render, type Ctx } from './onedrive-graph.ts';
import {
  ALLOW_HEADERS,
  Answer,
  EXPOSE_HEADERS,
  jsonReply,
  MiB,
  readBody,
  type Reply,
} from './onedrive-http.ts';
import { authorize, tokenGrant } from './onedrive-identity.ts';
import { DEFAULT_LIFETIME_S, freshState, type State } from './onedrive-store.ts';
import { content, MAX_FRAGMENT, MAX_SIMPLE_UPLOAD } from './onedrive-upload.ts';

export interface OneDriveEmulatorOptions {
  /** Port of the identity platform and Graph on 127.0.0.1; 0 or absent picks a free one. */
  port?: number;
  /** Port of the content host (upload and download URLs); absent: `port + 1`, or a free one. */
  contentPort?: number;
  /** Lifetime of access tokens in seconds (the identity platform's: about an hour). */
  tokenLifetimeS?: number;
  /** The app folder's name under /Apps: the app's display name at Microsoft. */
  appFolderName?: string;
}

export interface OneDriveEmulator {
  origin: string;
  /** ONEDRIVE_AUTH_URL */
  authUrl: string;
  /** ONEDRIVE_TOKEN_URL */
  tokenUrl: string;
  /** ONEDRIVE_GRAPH_URL: Graph v1.0's root, `${origin}/v1.0`. */
  graphUrl: string;
  /** Where upload and download URLs point (another host than `origin`). */
  contentOrigin: string;
  stop(): Promise<void>;
}

const LOG_LIMIT = 2000;

// ---------------------------------------------------------------------------------------------
// HTTP

/** The base of absolute URLs: https behind a TLS terminator (X-Forwarded-Proto), else as is. */
const publicBase = (req: http.IncomingMessage, origin: string) =>
  req.headers['x-forwarded-proto'] === 'https' ? origin.replace(/^http:/, 'https:') : origin;

type Side = 'graph' | 'content';

async function serve(
  s: State,
  defaults: () => State,
  side: Side,
  origins: { graph: string; content: string },
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const send = (reply: Reply) => {
    const origin = req.headers.origin;
    res.writeHead(reply.status, {
      'Access-Control-Allow-Origin': origin ?? '*',
      'Access-Control-Expose-Headers': EXPOSE_HEADERS,
      Vary: 'Origin',
      'request-id': crypto.randomUUID(),
      ...(req.headers['client-request-id']
        ? { 'client-request-id': String(req.headers['client-request-id']) }
        : {}),
      'Content-Length': String(reply.body.length),
      ...reply.headers,
    });
    res.end(method === 'HEAD' ? undefined : reply.body);
  };

  if (method === 'OPTIONS') {
    await readBody(req, 0);
    return send({
      status: 200,
      headers: {
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': '3600',
      },
      body: Buffer.alloc(0),
    });
  }
  if (side === 'graph' && url.pathname.startsWith('/__emulator/')) {
    const { body } = await readBody(req, 64 * MiB);
    try {
      return send(control(s, defaults, method, url, body));
    } catch (error) {
      return send(
        jsonReply(400, { error: error instanceof Error ? error.message : String(error) }),
      );
    }
  }

  const keep =
    side === 'content' ? MAX_FRAGMENT + 1 : method === 'PUT' ? MAX_SIMPLE_UPLOAD + 1 : MiB;
  const { body, total } = await readBody(req, keep);
  const c: Ctx = {
    s,
    req,
    url,
    body,
    total,
    graphBase: publicBase(req, origins.graph),
    contentBase: publicBase(req, origins.content),
  };
  let reply: Reply;
  try {
    reply =
      takeFault(s, url.pathname) ??
      (side === 'content'
        ? content(s, req, url, body, total, render(c))
        : url.pathname === '/common/oauth2/v2.0/authorize' && method === 'GET'
          ? authorize(s, url)
          : url.pathname === '/common/oauth2/v2.0/token' && method === 'POST'
            ? tokenGrant(s, req, body)
            : graph(c));
  } catch (error) {
    if (!(error instanceof Answer)) throw error;
    reply = error.reply;
  }
  s.log.push({
    method,
    path: url.pathname,
    status: reply.status,
    authorization: !!req.headers.authorization,
  });
  if (s.log.length > LOG_LIMIT) s.log.shift();
  send(reply);
}

function listen(server: http.Server, port: number) {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts the emulator; see the module header for what it answers. */
export async function startOneDriveEmulator(
  opts: OneDriveEmulatorOptions = {},
): Promise<OneDriveEmulator> {
  const lifetimeS = opts.tokenLifetimeS ?? DEFAULT_LIFETIME_S;
  const appFolderName = opts.appFolderName ?? 'SealVault';
  const defaults = () => freshState(lifetimeS, appFolderName);
  const s = defaults();
  const origins = { graph: '', content: '' };
  const handler = (side: Side) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    serve(s, defaults, side, origins, req, res).catch((error: unknown) => {
      console.error('onedrive emulator:', error);
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end('Internal Server Error');
    });
  };
  // A fixed Graph port gives a fixed content port (the next one), for a CSP's connect-src.
  const contentPort = opts.contentPort ?? (opts.port ? opts.port + 1 : 0);
  const graphServer = http.createServer(handler('graph'));
  const contentServer = http.createServer(handler('content'));
  origins.graph = `http://127.0.0.1:${await listen(graphServer, opts.port ?? 0)}`;
  // localhost resolves to 127.0.0.1 here: another host name than Graph's, as OneDrive's are.
  origins.content = `http://localhost:${await listen(contentServer, contentPort)}`;
  const close = (server: http.Server) =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  return {
    origin: origins.graph,
    authUrl: `${origins.graph}/common/oauth2/v2.0/authorize`,
    tokenUrl: `${origins.graph}/common/oauth2/v2.0/token`,
    graphUrl: `${origins.graph}/v1.0`,
    contentOrigin: origins.content,
    stop: async () => {
      await Promise.all([close(graphServer), close(contentServer)]);
    },
  };
}
