// Moving a vault to another storage provider (issue 27; protocol moves.ts). [Note: vault moves]
// The browser copies each of the vault's file blobs (files vault) or pinned segments (secrets
// vault kept in its provider, ADR 0008) to the target, verifies the copy there, and records it
// here as an item of the vault's one recorded move. Nothing is switched until every item is
// verified: then moves.switch.ts changes the vault's provider, its file records' references and
// its manifest in one transaction. Until then the vault stays fully usable where it is; a move
// interrupted anywhere is continued by starting it again (its items are kept), and a move that is
// replaced or cancelled hands its copies back for removal. The server never sees a provider token
// nor a byte of a cloud-held file. Copies on this server (target 'server') come only from tus in
// move mode (files/uploads.move.ts), which checks the bytes itself; the browser cannot name a blob
// of ours, so it cannot claim one it did not upload. Such copies are staged blobs: named by their
// item until the switch makes them the files' blobs, queued for deletion when the item is dropped.
import {
  fileTooLargeMessage,
  isUnlimited,
  maxCiphertextLength,
  messages,
  plaintextLength,
  storageQuotaMessage,
  type MoveItem,
  type ProviderType,
  type StartMoveRequest,
  type VaultMove,
} from '@sealvault/protocol';
import type { Selectable, Transaction } from 'kysely';
import type { Database, VaultMovesTable, VaultMoveItemsTable } from '../db/schema.ts';
import * as files from '../files/files.repository.ts';
import { queueBlobDeletions } from '../files/blob-deletions.repository.ts';
import { unfinishedUploadsOf } from '../files/uploads.repository.ts';
import { purgeBlobs, type FilesDeps } from '../files/files.service.ts';
import { hasPurgedFiles } from '../files/trash.repository.ts';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { getLimits, storageUsed } from '../plans/limits.service.ts';
import { findManifest } from './manifest.repository.ts';
import * as repo from './moves.repository.ts';
import { checkProviderOffered } from './providers.ts';
import { findVault } from './vaults.repository.ts';

const MiB = 1024 * 1024;
const CLOUD: ReadonlySet<string> = new Set(['dropbox', 'googledrive', 'onedrive']);

export const noMove = () => new HttpError(409, 'no_move', messages.moves.noMove);
export const copyMismatch = () => new HttpError(409, 'copy_mismatch', messages.moves.copyMismatch);

/**
 * [Note: trash] in the protocol's files.ts: a record the trash purge purged has no data to copy
 * (on this server its blob is gone), and the browser deletes such records when the vault is
 * opened. Until then a files vault holding one does not move: refused at the start and again at
 * the switch (one may be purged meanwhile), rather than moving records without their data.
 */
export async function assertNoPurgedFiles(db: repo.Q, vaultId: string): Promise<void> {
  if (await hasPurgedFiles(db, vaultId))
    throw new HttpError(409, 'conflict', messages.moves.purgedFiles);
}

async function ownVault(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  db: repo.Q = deps.db.kysely,
) {
  const vault = await findVault(db, userId, vaultId);
  if (!vault) throw notFound(messages.vaults.notFound);
  return vault;
}

/** The vault's row, locked until the transaction ends on PostgreSQL (SQLite has one writer). */
export async function lockVaultRow(
  trx: Transaction<Database>,
  kind: 'sqlite' | 'postgres',
  userId: string,
  vaultId: string,
) {
  let q = trx
    .selectFrom('vaults')
    .selectAll()
    .where('id', '=', vaultId)
    .where('user_id', '=', userId);
  if (kind === 'postgres') q = q.forUpdate();
  const vault = await q.executeTakeFirst();
  if (!vault) throw notFound(messages.vaults.notFound);
  return vault;
}

async function moveOf(db: repo.Q, vaultId: string): Promise<VaultMove | null> {
  const row = await repo.findMove(db, vaultId);
  if (!row) return null;
  return repo.toMove(row, (await repo.listItems(db, vaultId)).map(repo.toItem));
}

/**
 * The blobs a move to this server staged for `items`, queued for deletion (due now) in the
 * caller's transaction (with the move's unfinished uploads, which could only stage more); the
 * caller purges them after the commit. None for any other target.
 */
export async function queueStaged(
  trx: repo.Q,
  move: Pick<VaultMovesTable, 'vault_id' | 'target_provider'>,
  items: readonly Pick<VaultMoveItemsTable, 'kind' | 'ref'>[],
  now: Date,
): Promise<string[]> {
  if (move.target_provider !== 'server') return [];
  await repo.expireMoveUploads(trx, move.vault_id, now.toISOString());
  const keys = items.filter((i) => i.kind === 'file').map((i) => i.ref);
  await queueBlobDeletions(trx, keys, now.toISOString());
  return keys;
}

/**
 * For the vault's deletion, in its transaction and before the vault's row goes (the move's rows
 * go with it): queues the blobs its move staged here. Returns them for purgeBlobs.
 */
export async function deleteMoveOfVault(
  trx: repo.Q,
  vaultId: string,
  now: Date,
): Promise<string[]> {
  const move = await repo.findMove(trx, vaultId);
  if (!move) return [];
  return queueStaged(trx, move, await repo.deleteMove(trx, vaultId), now);
}

export async function getMove(deps: FilesDeps, userId: string, vaultId: string) {
  await ownVault(deps, userId, vaultId);
  return moveOf(deps.db.kysely, vaultId);
}

/** The plan's limits for a files vault moving to this server, as an upload of each file meets them. */
async function checkServerLimits(deps: FilesDeps, userId: string, vaultId: string): Promise<void> {
  const db = deps.db.kysely;
  const limits = await getLimits(db, userId, deps.logger);
  const rows = await files.listFiles(db, vaultId);
  const max = maxCiphertextLength(limits.max_file_size_mb);
  const tooLarge = max === null ? undefined : rows.find((f) => Number(f.ciphertext_size) > max);
  if (tooLarge) {
    const size = Number(tooLarge.ciphertext_size);
    throw new HttpError(
      413,
      'payload_too_large',
      fileTooLargeMessage(plaintextLength(size) ?? size),
    );
  }
  const quota = limits.max_storage_mb;
  if (quota === undefined || isUnlimited(quota)) return;
  const total = rows.reduce((n, f) => n + Number(f.ciphertext_size), 0);
  const pending = await unfinishedUploadsOf(db, userId, deps.now().toISOString());
  const used = (await storageUsed(db, userId)) + (await repo.stagedBytesOf(db, userId, vaultId));
  if (used + pending.bytes + total > quota * MiB) {
    throw new HttpError(413, 'payload_too_large', storageQuotaMessage(quota));
  }
}

/** 409 same_provider, or 400 for a folder the target does not take or needs. */
function checkTarget(
  vault: { provider_type: string; storage_folder: string | null; vault_type: string },
  input: StartMoveRequest,
): void {
  const target = input.target_provider;
  const sameFolder = (input.target_folder ?? '') === (vault.storage_folder ?? '');
  if (target === vault.provider_type && (!CLOUD.has(target) || sameFolder))
    throw new HttpError(409, 'same_provider', messages.moves.sameProvider);
  if (!CLOUD.has(target) && input.target_folder !== null)
    throw badRequest('Only a vault on a cloud provider has a folder.');
  if (CLOUD.has(target) && vault.vault_type === 'files' && input.target_folder === null)
    throw badRequest('A files vault on a cloud provider needs its folder.');
}

/**
 * PUT /move: continues the recorded move to the same target and folder (its items kept), or
 * records a new one, replacing any other (whose items are the leftovers; the ones staged on this
 * server are queued for deletion here).
 */
export async function startMove(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  input: StartMoveRequest,
): Promise<{
  move: VaultMove;
  leftovers: MoveItem[];
  leftovers_target: { provider: ProviderType; folder: string | null } | null;
}> {
  const vault = await ownVault(deps, userId, vaultId);
  checkProviderOffered(deps.config, input.target_provider);
  checkTarget(vault, input);
  if (vault.vault_type === 'files') await assertNoPurgedFiles(deps.db.kysely, vaultId);
  if (input.target_provider === 'server' && vault.vault_type === 'files')
    await checkServerLimits(deps, userId, vaultId);
  const now = deps.now();
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    const locked = await lockVaultRow(trx, deps.db.kind, userId, vaultId);
    checkTarget(locked, input); // another device may have moved it meanwhile
    const existing = await repo.findMove(trx, vaultId);
    const same =
      existing &&
      existing.source_provider === locked.provider_type &&
      existing.target_provider === input.target_provider &&
      existing.target_folder === input.target_folder;
    if (same) {
      await repo.updateMove(trx, vaultId, {
        delete_source: input.delete_source ? 1 : 0,
        updated_at: now.toISOString(),
      });
      return { leftovers: [], staged: [], replaced: null };
    }
    let leftovers: Selectable<VaultMoveItemsTable>[] = [];
    let staged: string[] = [];
    if (existing) {
      leftovers = await repo.deleteMove(trx, vaultId);
      staged = await queueStaged(trx, existing, leftovers, now);
    }
    await repo.insertMove(trx, {
      vault_id: vaultId,
      user_id: userId,
      source_provider: locked.provider_type,
      target_provider: input.target_provider,
      target_folder: input.target_folder,
      delete_source: input.delete_source ? 1 : 0,
      started_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    const replaced = existing
      ? { provider: existing.target_provider as ProviderType, folder: existing.target_folder }
      : null;
    return { leftovers, staged, replaced };
  });
  await purgeBlobs(deps, result.staged);
  return {
    move: (await moveOf(deps.db.kysely, vaultId))!,
    leftovers: result.leftovers.map(repo.toItem),
    leftovers_target: result.replaced,
  };
}

/**
 * POST /move/items: records verified copies, all or none. A file's copy must match its record
 * (content hash and size); a segment's must be pinned by the stored manifest with that digest.
 */
export async function addItems(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  items: readonly MoveItem[],
): Promise<VaultMove> {
  await ownVault(deps, userId, vaultId);
  await deps.db.kysely.transaction().execute(async (trx) => {
    const vault = await lockVaultRow(trx, deps.db.kind, userId, vaultId);
    const move = await repo.findMove(trx, vaultId);
    if (!move) throw noMove();
    // [Note: vault moves]: copies on this server are recorded by their upload only.
    if (move.target_provider === 'server') throw badRequest(messages.moves.serverRecordsItsCopies);
    await checkCopies(trx, vault.vault_type, vaultId, items);
    await repo.upsertItems(trx, vaultId, items);
    await repo.updateMove(trx, vaultId, { updated_at: deps.now().toISOString() });
  });
  return (await moveOf(deps.db.kysely, vaultId))!;
}

async function checkCopies(
  trx: repo.Q,
  vaultType: string,
  vaultId: string,
  items: readonly MoveItem[],
): Promise<void> {
  const fileItems = items.filter((i) => i.kind === 'file');
  const segmentItems = items.filter((i) => i.kind === 'segment');
  if (fileItems.length) {
    const records = new Map<string, { checksum: string; size: number }>();
    for (let at = 0; at < fileItems.length; at += 500) {
      const rows = await trx
        .selectFrom('vault_files')
        .select(['id', 'checksum', 'ciphertext_size'])
        .where('vault_id', '=', vaultId)
        .where(
          'id',
          'in',
          fileItems.slice(at, at + 500).map((i) => i.id),
        )
        .execute();
      for (const r of rows)
        records.set(r.id, { checksum: r.checksum, size: Number(r.ciphertext_size) });
    }
    for (const item of fileItems) {
      const record = records.get(item.id);
      if (!record || record.checksum !== item.checksum || record.size !== item.size)
        throw copyMismatch();
    }
  }
  if (segmentItems.length) {
    if (vaultType !== 'secrets') throw copyMismatch();
    const segments = (await findManifest(trx, vaultId))?.segments;
    // A vault whose items are on this server (no `segments`, ADR 0008) moves them as a new
    // snapshot segment that no manifest pins yet: the switch holds it to the next manifest's pin.
    if (!segments) return;
    const pins = new Map(segments);
    if (segmentItems.some((i) => pins.get(i.id) !== i.checksum)) throw copyMismatch();
  }
}

/** DELETE /move: the move's items, for the browser to remove from the target (ours queued here). */
export async function cancelMove(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
): Promise<MoveItem[]> {
  await ownVault(deps, userId, vaultId);
  const now = deps.now();
  const { items, staged } = await deps.db.kysely.transaction().execute(async (trx) => {
    await lockVaultRow(trx, deps.db.kind, userId, vaultId);
    const move = await repo.findMove(trx, vaultId);
    if (!move) return { items: [], staged: [] };
    const removed = await repo.deleteMove(trx, vaultId);
    return { items: removed, staged: await queueStaged(trx, move, removed, now) };
  });
  await purgeBlobs(deps, staged);
  return items.map(repo.toItem);
}
