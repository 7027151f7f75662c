// Typed client for /api/vaults/:id/move (schemas in moves.ts; issue 27). A file moving to our own
// server is not recorded through this client: it goes up through tus in move mode (files.ts,
// MOVE_FILE_ID_METADATA) and the server records its item when the upload finishes.
import { jsonInit, requestJson, requestWithConflict } from './client.ts';
import { manifestConflictSchema } from './manifest.ts';
import {
  cancelMoveResponseSchema,
  moveResponseSchema,
  startMoveResponseSchema,
  switchMoveResponseSchema,
  type MoveItem,
  type StartMoveRequest,
  type SwitchMoveRequest,
} from './moves.ts';
import { ManifestConflictError } from './vaults.api.ts';

const base = (vaultId: string) => `/api/vaults/${encodeURIComponent(vaultId)}/move`;

export const movesApi = {
  /** The recorded move of the vault, or null. */
  get: (vaultId: string) => requestJson(moveResponseSchema, base(vaultId)),
  /**
   * Starts a move, or continues the recorded one to the same target and folder; a move recorded
   * to another target is replaced and its copies come back as `leftovers` to remove.
   */
  start: (vaultId: string, body: StartMoveRequest) =>
    requestJson(startMoveResponseSchema, base(vaultId), jsonInit('PUT', body)),
  /** Records verified copies (at most MOVE_ITEMS_MAX at once); 409 `copy_mismatch` records none. */
  addItems: (vaultId: string, items: MoveItem[]) =>
    requestJson(moveResponseSchema, `${base(vaultId)}/items`, jsonInit('POST', { items })),
  /**
   * The switch: the next manifest naming the target, in one transaction with the vault's new
   * provider. A lost manifest race throws ManifestConflictError with the stored manifest; 409
   * `not_verified` says how many items are still to copy.
   */
  switch: (vaultId: string, body: SwitchMoveRequest) =>
    requestWithConflict(
      switchMoveResponseSchema,
      `${base(vaultId)}/switch`,
      jsonInit('POST', body),
      manifestConflictSchema,
      (c) => new ManifestConflictError(c.error.message, c.current),
    ),
  /** Cancels the move; answers what was copied, for the browser to remove from the target. */
  cancel: (vaultId: string) =>
    requestJson(cancelMoveResponseSchema, base(vaultId), { method: 'DELETE' }),
};
