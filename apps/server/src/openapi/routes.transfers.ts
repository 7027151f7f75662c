// The API's byte transfers: tus uploads and share links, for the OpenAPI table (api-routes.ts).
import {
  createShareRequestSchema,
  shareInfoSchema,
  shareOpenResponseSchema,
  shareResponseSchema,
  sharesResponseSchema,
  updateShareRequestSchema,
} from '@sealvault/protocol';
import {
  ciphertext,
  json,
  noContent,
  ok,
  rangeHeaders,
  tusHeaders,
  type ApiRoute,
} from './route-table.ts';

export const TRANSFER_ROUTES: readonly ApiRoute[] = [
  // --- uploads (tus 1.0) -------------------------------------------------------------------------
  {
    method: 'options',
    path: '/api/uploads/*',
    tag: 'uploads',
    summary: 'tus protocol discovery: versions, extensions, checksum algorithms.',
    auth: 'public',
    responses: {
      204: {
        description: 'The tus capabilities.',
        headers: {
          'Tus-Version': '1.0.0',
          'Tus-Extension': 'The extensions supported.',
          'Tus-Checksum-Algorithm': 'sha256',
        },
      },
    },
  },
  {
    method: 'post',
    path: '/api/uploads',
    tag: 'uploads',
    summary: "Creates a tus upload of a file's ciphertext (docs/architecture.md, ADR 0004).",
    auth: 'session',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': 'The ciphertext length in bytes.',
      'Upload-Metadata': 'vaultId, fileId, checksum, encMeta, lookup, wrappedKey, keyRevision.',
    },
    body: ciphertext('Optionally the first bytes (creation-with-upload)'),
    responses: {
      201: {
        description: 'Created; Location is the upload.',
        headers: { ...tusHeaders, Location: '/api/uploads/{id}', 'Upload-Expires': 'When.' },
      },
    },
  },
  {
    method: 'get',
    path: '/api/uploads/:id',
    tag: 'uploads',
    summary: 'HEAD only: the offset to resume from (a complete upload is finished first).',
    auth: 'session',
    responses: { 200: { description: 'The offset.', headers: tusHeaders } },
  },
  {
    method: 'patch',
    path: '/api/uploads/:id',
    tag: 'uploads',
    summary:
      'The next bytes at Upload-Offset, checked by Upload-Checksum; the last one records the file.',
    auth: 'session',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': 'Where these bytes go.',
      'Upload-Checksum': 'sha256 <base64>: of this body.',
    },
    body: {
      media: 'application/offset+octet-stream',
      description: 'Ciphertext bytes.',
      binary: true,
    },
    responses: { 204: { description: 'Stored.', headers: tusHeaders } },
  },
  {
    method: 'delete',
    path: '/api/uploads/:id',
    tag: 'uploads',
    summary: 'Cancels an upload (tus termination).',
    auth: 'session',
    responses: { 204: noContent },
  },

  // --- share links (issue 29) ----------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/shares',
    tag: 'shares',
    summary: "The user's share links.",
    auth: 'session',
    responses: { 200: ok('The links.', sharesResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/shares',
    tag: 'shares',
    summary: 'Creates a share link (its keys and ciphertext made in the browser).',
    auth: 'session',
    body: json(createShareRequestSchema),
    responses: { 201: ok('The link.', shareResponseSchema) },
  },
  {
    method: 'put',
    path: '/api/shares/:id/content',
    tag: 'shares',
    summary: "A file link's ciphertext, whole or in parts (Content-Range, in order).",
    auth: 'session',
    headers: { 'Content-Range': 'Optional: bytes start-end/total, for a part.' },
    body: ciphertext("The link's copy of the file"),
    responses: { 204: noContent },
  },
  {
    method: 'patch',
    path: '/api/shares/:id',
    tag: 'shares',
    summary: 'Gives a link a new expiry.',
    auth: 'session',
    body: json(updateShareRequestSchema),
    responses: { 200: ok('The link.', shareResponseSchema) },
  },
  {
    method: 'delete',
    path: '/api/shares/:id',
    tag: 'shares',
    summary: 'Revokes a link.',
    auth: 'session',
    responses: { 204: noContent },
  },
  {
    method: 'get',
    path: '/api/s/:id',
    tag: 'shares',
    summary: 'What a link is, for its recipient; counts no open. One 404 for every unusable link.',
    auth: 'public',
    headers: { 'X-Share-Access': "The link's access token (from the link's fragment)." },
    responses: { 200: ok('The link.', shareInfoSchema) },
  },
  {
    method: 'post',
    path: '/api/s/:id/open',
    tag: 'shares',
    summary: "Opens a link (counted): a secret's payload or a file's download token.",
    auth: 'public',
    headers: { 'X-Share-Access': "The link's access token." },
    responses: { 200: ok('The payload or download token.', shareOpenResponseSchema) },
  },
  {
    method: 'get',
    path: '/api/s/:id/content',
    tag: 'shares',
    summary: "A file link's ciphertext, whole or a Range, for a download token.",
    auth: 'public',
    headers: {
      'X-Share-Download': 'The download token from the open (10 minutes).',
      Range: 'Optional: bytes=start-end.',
    },
    responses: {
      200: { description: 'The whole file.', body: ciphertext('The file') },
      206: {
        description: 'The range asked for.',
        body: ciphertext('A part'),
        headers: rangeHeaders,
      },
    },
  },
];
