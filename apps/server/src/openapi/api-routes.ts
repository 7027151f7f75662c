// Every route of the API with the zod schemas that validate it (issue 33): the request bodies the
// routes parse with jsonBody (http/validate.ts) and the answers the protocol's client parses
// (packages/protocol, *.api.ts), both the same objects, not copies. document.ts turns this table
// into the OpenAPI description served at GET /api/openapi.json; openapi.test.ts holds it to the
// routes the app registers, so a route added without an entry here fails the tests.
import { z } from 'zod';
import {
  addMoveItemsRequestSchema,
  adminUpgradeRequestSchema,
  authConfigResponseSchema,
  cancelMoveResponseSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  createdInvitationSchema,
  createFileRecordRequestSchema,
  createInvitationRequestSchema,
  createSecretRequestSchema,
  createShareRequestSchema,
  createVaultRequestSchema,
  deleteMeRequestSchema,
  fileResponseSchema,
  filesResponseSchema,
  healthResponseSchema,
  importSecretsRequestSchema,
  importSecretsResponseSchema,
  invitationResponseSchema,
  invitationsResponseSchema,
  landingContentSchema,
  limitsSchema,
  manifestConflictSchema,
  manifestResponseSchema,
  meResponseSchema,
  moveResponseSchema,
  paymentsConfigSchema,
  plansResponseSchema,
  putManifestRequestSchema,
  removedSecretsResponseSchema,
  renameFileRequestSchema,
  replaceVaultKeyRequestSchema,
  rotateVaultRequestSchema,
  rotateVaultResponseSchema,
  secretConflictSchema,
  secretResponseSchema,
  secretsResponseSchema,
  shareInfoSchema,
  shareOpenResponseSchema,
  shareResponseSchema,
  sharesResponseSchema,
  startMoveRequestSchema,
  startMoveResponseSchema,
  storageConfigResponseSchema,
  subscriptionResponseSchema,
  switchMoveRequestSchema,
  switchMoveResponseSchema,
  trashFilesRequestSchema,
  trialRequestSchema,
  updateMeRequestSchema,
  updateSecretRequestSchema,
  updateShareRequestSchema,
  updateVaultRequestSchema,
  upgradeRequestSchema,
  vaultResponseSchema,
  vaultsResponseSchema,
  vaultVisibilityRequestSchema,
  vaultVisibilityResponseSchema,
} from '@sealvault/protocol';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/** A body: JSON checked by a zod schema, or bytes / text / a form of the named media type. */
export type Body = { json: z.ZodType } | { media: string; description: string; binary?: boolean };

export interface ApiResponse {
  description: string;
  body?: Body;
  /** Response headers worth naming (tus, Range). */
  headers?: Record<string, string>;
}

export interface ApiRoute {
  method: Method;
  /** Hono's pattern as registered: `/api/vaults/:id`; `*` for a subtree (Better Auth's). */
  path: string;
  tag: string;
  summary: string;
  /** session: the sign-in cookie; metrics: METRICS_TOKEN as a Bearer token; public: nothing. */
  auth: 'session' | 'public' | 'metrics';
  /** Request headers the route reads (beyond the cookie). */
  headers?: Record<string, string>;
  body?: Body;
  responses: Record<number, ApiResponse>;
}

const json = (schema: z.ZodType): Body => ({ json: schema });
const ok = (description: string, schema?: z.ZodType): ApiResponse =>
  schema ? { description, body: json(schema) } : { description };
const noContent: ApiResponse = { description: 'Done; no body.' };
const conflictWith = (schema: z.ZodType, what: string): ApiResponse => ({
  description: `A newer ${what} was stored first: 409 conflict with the stored one as \`current\`.`,
  body: json(schema),
});
const ciphertext = (what: string): Body => ({
  media: 'application/octet-stream',
  description: `${what}: ciphertext only (docs/vault-format.md).`,
  binary: true,
});
const rangeHeaders = {
  'Content-Range': 'With a Range request (RFC 9110, section 14): the part sent.',
  'Accept-Ranges': 'bytes',
};
const tusHeaders = {
  'Tus-Resumable': 'The tus protocol version: 1.0.0.',
  'Upload-Offset': 'The bytes received so far.',
};
const deleted = z.object({ deleted: z.literal(true) });

export const API_ROUTES: readonly ApiRoute[] = [
  // --- service ---------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/health',
    tag: 'service',
    summary: "The server answers and its database does; the server's version and commit.",
    auth: 'public',
    responses: { 200: ok('Healthy.', healthResponseSchema) },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'service',
    summary: 'This description (OpenAPI 3.1).',
    auth: 'public',
    responses: {
      200: {
        description: 'The OpenAPI document.',
        body: { media: 'application/json', description: 'OpenAPI 3.1.' },
      },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'service',
    summary: 'Prometheus metrics (docs/deploy.md, "Metrics"); a 404 without METRICS_TOKEN.',
    auth: 'metrics',
    responses: {
      200: {
        description: 'The Prometheus text exposition format.',
        body: { media: 'text/plain; version=0.0.4', description: 'Metrics.' },
      },
    },
  },
  {
    method: 'get',
    path: '/api/plans',
    tag: 'plans',
    summary: 'The active plans, in order.',
    auth: 'public',
    responses: { 200: ok('The plans.', plansResponseSchema) },
  },
  {
    method: 'get',
    path: '/api/landing',
    tag: 'service',
    summary: "The landing page's statistics and testimonials (LANDING_CONFIG).",
    auth: 'public',
    responses: { 200: ok('The landing content.', landingContentSchema) },
  },
  {
    method: 'get',
    path: '/api/storage-config',
    tag: 'service',
    summary: 'The cloud storage providers this server is configured for (null: not offered).',
    auth: 'public',
    responses: { 200: ok('The providers.', storageConfigResponseSchema) },
  },
  {
    method: 'get',
    path: '/api/auth-config',
    tag: 'auth',
    summary: 'What the sign-in screens offer.',
    auth: 'public',
    responses: { 200: ok('The configuration.', authConfigResponseSchema) },
  },
  ...(['get', 'post'] as const).map((method): ApiRoute => ({
    method,
    path: '/api/auth/*',
    tag: 'auth',
    summary:
      "Better Auth's endpoints and ours on it (sign-up, sign-in with OPAQUE or a passkey, sessions, second factor, Google): docs/auth.md.",
    auth: 'public',
    body:
      method === 'post' ? { media: 'application/json', description: 'Per endpoint.' } : undefined,
    responses: {
      200: {
        description: "Per endpoint; errors in Better Auth's shape `{ code, message }`.",
        body: { media: 'application/json', description: 'Per endpoint.' },
      },
    },
  })),

  // --- account -----------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/me',
    tag: 'account',
    summary: 'The signed-in user and profile.',
    auth: 'session',
    responses: { 200: ok('The profile.', meResponseSchema) },
  },
  {
    method: 'patch',
    path: '/api/me',
    tag: 'account',
    summary: "Changes the user's name.",
    auth: 'session',
    body: json(updateMeRequestSchema),
    responses: { 200: ok('The profile.', meResponseSchema) },
  },
  {
    method: 'delete',
    path: '/api/me',
    tag: 'account',
    summary: 'Deletes the account and everything of it.',
    auth: 'session',
    body: json(deleteMeRequestSchema),
    responses: { 200: ok('Deleted; the session cookie is cleared.', deleted) },
  },
  {
    method: 'get',
    path: '/api/limits',
    tag: 'plans',
    summary: "The user's plan limits and the storage used.",
    auth: 'session',
    responses: { 200: ok('The limits.', limitsSchema) },
  },
  {
    method: 'get',
    path: '/api/subscription',
    tag: 'plans',
    summary: "The user's subscription.",
    auth: 'session',
    responses: { 200: ok('The subscription.', subscriptionResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/subscription/upgrade',
    tag: 'plans',
    summary: 'Changes the plan (a downgrade at the end of the period).',
    auth: 'session',
    body: json(upgradeRequestSchema),
    responses: { 200: ok('The subscription.', subscriptionResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/subscription/admin-upgrade',
    tag: 'plans',
    summary: "An admin sets a user's plan.",
    auth: 'session',
    body: json(adminUpgradeRequestSchema),
    responses: { 200: ok('The subscription.', subscriptionResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/subscription/trial',
    tag: 'plans',
    summary: 'Starts a trial of a paid plan.',
    auth: 'session',
    body: json(trialRequestSchema),
    responses: { 200: ok('The subscription.', subscriptionResponseSchema) },
  },
  {
    method: 'get',
    path: '/api/payments/config',
    tag: 'plans',
    summary: 'Whether card payments are offered, and how.',
    auth: 'session',
    responses: { 200: ok('The payments configuration.', paymentsConfigSchema) },
  },
  {
    method: 'post',
    path: '/api/payments/checkout',
    tag: 'plans',
    summary: 'Starts a checkout for a paid plan.',
    auth: 'session',
    body: json(checkoutRequestSchema),
    responses: { 201: ok('The checkout to open.', checkoutResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/payments/ipn',
    tag: 'plans',
    summary: "The payment provider's signed notification (docs/payments.md).",
    auth: 'public',
    body: {
      media: 'application/x-www-form-urlencoded',
      description: 'The notification, signed with the shared secret.',
    },
    responses: {
      200: {
        description: 'The signed receipt the provider expects.',
        body: { media: 'text/plain', description: 'The receipt.' },
      },
    },
  },

  // --- admin (issue 33): the admin role only ---------------------------------------------------
  {
    method: 'post',
    path: '/api/admin/invitations',
    tag: 'admin',
    summary: 'Makes a single-use sign-up link (optional e-mail and expiry).',
    auth: 'session',
    body: json(createInvitationRequestSchema),
    responses: { 201: ok('The invitation and its link (shown once).', createdInvitationSchema) },
  },
  {
    method: 'get',
    path: '/api/admin/invitations',
    tag: 'admin',
    summary: 'The invitations, newest first (never a token).',
    auth: 'session',
    responses: { 200: ok('The invitations.', invitationsResponseSchema) },
  },
  {
    method: 'delete',
    path: '/api/admin/invitations/:id',
    tag: 'admin',
    summary: 'Revokes an invitation not yet used.',
    auth: 'session',
    responses: { 200: ok('The invitation.', invitationResponseSchema) },
  },

  // --- vaults --------------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/vaults',
    tag: 'vaults',
    summary: "The user's vaults.",
    auth: 'session',
    responses: { 200: ok('The vaults.', vaultsResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/vaults',
    tag: 'vaults',
    summary: 'Creates a vault (its key slots made in the browser).',
    auth: 'session',
    body: json(createVaultRequestSchema),
    responses: { 201: ok('The vault.', vaultResponseSchema) },
  },
  {
    method: 'get',
    path: '/api/vaults/:id',
    tag: 'vaults',
    summary: 'One vault.',
    auth: 'session',
    responses: { 200: ok('The vault.', vaultResponseSchema) },
  },
  {
    method: 'patch',
    path: '/api/vaults/:id',
    tag: 'vaults',
    summary: "Changes a vault's encrypted metadata.",
    auth: 'session',
    body: json(updateVaultRequestSchema),
    responses: { 200: ok('The vault.', vaultResponseSchema) },
  },
  {
    method: 'delete',
    path: '/api/vaults/:id',
    tag: 'vaults',
    summary: 'Deletes a vault and everything in it.',
    auth: 'session',
    responses: { 204: noContent },
  },
  {
    method: 'get',
    path: '/api/vaults/:id/manifest',
    tag: 'vaults',
    summary: "The vault's signed manifest (ADR 0007).",
    auth: 'session',
    responses: { 200: ok('The manifest.', manifestResponseSchema) },
  },
  {
    method: 'put',
    path: '/api/vaults/:id/manifest',
    tag: 'vaults',
    summary: 'The next manifest, by compare-and-swap on its version.',
    auth: 'session',
    body: json(putManifestRequestSchema),
    responses: {
      200: ok('Stored.', manifestResponseSchema),
      409: conflictWith(manifestConflictSchema, 'manifest'),
    },
  },
  {
    method: 'post',
    path: '/api/vaults/:id/rotate',
    tag: 'vaults',
    summary: "Rotates the vault's key: every item and file key rewrapped at once.",
    auth: 'session',
    body: json(rotateVaultRequestSchema),
    responses: {
      200: ok('Rotated.', rotateVaultResponseSchema),
      409: conflictWith(manifestConflictSchema, 'manifest'),
    },
  },
  {
    method: 'put',
    path: '/api/vaults/:id/key',
    tag: 'vaults',
    summary: "Replaces the vault's key slots (a password change, a passkey slot).",
    auth: 'session',
    body: json(replaceVaultKeyRequestSchema),
    responses: { 200: ok('The vault.', vaultResponseSchema) },
  },
  {
    method: 'patch',
    path: '/api/vaults/:vaultId/visibility',
    tag: 'vaults',
    summary: 'Hides or shows a vault.',
    auth: 'session',
    body: json(vaultVisibilityRequestSchema),
    responses: { 200: ok('The vault.', vaultVisibilityResponseSchema) },
  },

  // --- moves (issue 27) ----------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/vaults/:vaultId/move',
    tag: 'moves',
    summary: "The vault's move to another provider, if any.",
    auth: 'session',
    responses: { 200: ok('The move.', moveResponseSchema) },
  },
  {
    method: 'put',
    path: '/api/vaults/:vaultId/move',
    tag: 'moves',
    summary: 'Starts (or replaces) a move.',
    auth: 'session',
    body: json(startMoveRequestSchema),
    responses: { 200: ok('The move.', startMoveResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/vaults/:vaultId/move/items',
    tag: 'moves',
    summary: 'Records verified copies on the target.',
    auth: 'session',
    body: json(addMoveItemsRequestSchema),
    responses: { 200: ok('The move.', moveResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/vaults/:vaultId/move/switch',
    tag: 'moves',
    summary: 'Switches the vault to the target in one transaction.',
    auth: 'session',
    body: json(switchMoveRequestSchema),
    responses: {
      200: ok('Switched.', switchMoveResponseSchema),
      409: conflictWith(manifestConflictSchema, 'manifest'),
    },
  },
  {
    method: 'delete',
    path: '/api/vaults/:vaultId/move',
    tag: 'moves',
    summary: 'Cancels the move.',
    auth: 'session',
    responses: { 200: ok('The copies left to delete on the target.', cancelMoveResponseSchema) },
  },

  // --- secrets ---------------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/vaults/:vaultId/secrets',
    tag: 'secrets',
    summary: "The vault's encrypted items.",
    auth: 'session',
    responses: { 200: ok('The items.', secretsResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/vaults/:vaultId/secrets',
    tag: 'secrets',
    summary: 'Adds an encrypted item.',
    auth: 'session',
    body: json(createSecretRequestSchema),
    responses: { 201: ok('The item.', secretResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/vaults/:vaultId/secrets/import',
    tag: 'secrets',
    summary: 'Adds many items with the next manifest, all or none.',
    auth: 'session',
    body: json(importSecretsRequestSchema),
    responses: {
      201: ok('Imported.', importSecretsResponseSchema),
      409: conflictWith(manifestConflictSchema, 'manifest'),
    },
  },
  {
    method: 'delete',
    path: '/api/vaults/:vaultId/secrets',
    tag: 'secrets',
    summary: "Deletes the server's copies of a moved vault's items (ADR 0008).",
    auth: 'session',
    responses: { 200: ok('How many were deleted.', removedSecretsResponseSchema) },
  },
  {
    method: 'put',
    path: '/api/vaults/:vaultId/secrets/:secretId',
    tag: 'secrets',
    summary: 'Replaces an item, by compare-and-swap on its revision.',
    auth: 'session',
    body: json(updateSecretRequestSchema),
    responses: {
      200: ok('The item.', secretResponseSchema),
      409: conflictWith(secretConflictSchema, 'item'),
    },
  },
  {
    method: 'delete',
    path: '/api/vaults/:vaultId/secrets/:secretId',
    tag: 'secrets',
    summary: 'Deletes an item.',
    auth: 'session',
    responses: { 204: noContent },
  },

  // --- files -----------------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/vaults/:vaultId/files',
    tag: 'files',
    summary: "The vault's file records.",
    auth: 'session',
    responses: { 200: ok('The records.', filesResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/vaults/:vaultId/files',
    tag: 'files',
    summary: 'Records a file a cloud provider holds (its bytes never reach this server).',
    auth: 'session',
    body: json(createFileRecordRequestSchema),
    responses: { 201: ok('The record.', fileResponseSchema) },
  },
  {
    method: 'post',
    path: '/api/vaults/:vaultId/files/trash',
    tag: 'files',
    summary: 'Puts records in the trash or takes them out (up to 1,000, all or none).',
    auth: 'session',
    body: json(trashFilesRequestSchema),
    responses: { 200: ok('The records.', filesResponseSchema) },
  },
  {
    method: 'get',
    path: '/api/vaults/:vaultId/files/:fileId',
    tag: 'files',
    summary: 'One file record.',
    auth: 'session',
    responses: { 200: ok('The record.', fileResponseSchema) },
  },
  {
    method: 'patch',
    path: '/api/vaults/:vaultId/files/:fileId',
    tag: 'files',
    summary: 'Renames a file (its encrypted metadata and name lookup).',
    auth: 'session',
    body: json(renameFileRequestSchema),
    responses: { 200: ok('The record.', fileResponseSchema) },
  },
  {
    method: 'delete',
    path: '/api/vaults/:vaultId/files/:fileId',
    tag: 'files',
    summary: 'Deletes a file and its bytes.',
    auth: 'session',
    responses: { 204: noContent },
  },
  {
    method: 'get',
    path: '/api/vaults/:vaultId/files/:fileId/content',
    tag: 'files',
    summary: "A file's ciphertext, whole or a Range of it.",
    auth: 'session',
    headers: { Range: 'Optional: bytes=start-end (RFC 9110, section 14).' },
    responses: {
      200: { description: 'The whole file.', body: ciphertext('The file') },
      206: {
        description: 'The range asked for.',
        body: ciphertext('A part'),
        headers: rangeHeaders,
      },
    },
  },

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
