// The vault manifest for its owner (ADR 0007, "The manifest"). The server cannot check the MAC (it
// has no keys): it stores what passes manifestSchema and enforces compare-and-swap on the version,
// so of two devices writing the next version one wins and the other gets 409 with the stored one.
//
// A read-only vault ([Note: read-only after a trial], protocol trials.ts) still takes manifest
// writes: its password can still be changed, which changes its slots, and its first unlock after
// ADR 0007 writes version 1. A manifest changes no record, so it cannot grow what the vault holds.
import {
  MANIFEST_CONFLICT_MESSAGE,
  messages,
  type Manifest,
  type PutManifestRequest,
} from '@sealvault/protocol';
import { HttpError, notFound } from '../http/errors.ts';
import type { AppDeps } from '../http/context.ts';
import { findVault } from './vaults.repository.ts';
import * as repo from './manifest.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'now'>;

/** A lost compare-and-swap: `current` is the stored manifest (null if there is none). */
export class ManifestConflict extends HttpError {
  constructor(
    readonly current: Manifest | null,
    message: string = MANIFEST_CONFLICT_MESSAGE,
  ) {
    super(409, 'conflict', message);
  }
}

async function ownVault(deps: Deps, userId: string, vaultId: string) {
  if (!(await findVault(deps.db.kysely, userId, vaultId))) {
    throw notFound(messages.vaults.notFound);
  }
}

export async function getManifest(
  deps: Deps,
  userId: string,
  vaultId: string,
): Promise<Manifest | null> {
  await ownVault(deps, userId, vaultId);
  return repo.findManifest(deps.db.kysely, vaultId);
}

export async function putManifest(
  deps: Deps,
  userId: string,
  vaultId: string,
  input: PutManifestRequest,
): Promise<Manifest> {
  const now = deps.now().toISOString();
  return deps.db.kysely
    .transaction()
    .execute(async (trx) => {
      // On SQLite the write transaction holds the only write lock from here on.
      if (!(await findVault(trx, userId, vaultId))) throw notFound(messages.vaults.notFound);
      if (!(await repo.writeManifest(trx, vaultId, input.expected_version, input.manifest, now))) {
        throw new ManifestConflict(await repo.findManifest(trx, vaultId));
      }
      return input.manifest;
    })
    .catch((err: unknown) => {
      // PostgreSQL: the vault was deleted between the check and the write.
      if (isForeignKeyViolation(err)) throw notFound(messages.vaults.notFound);
      throw err;
    });
}

const isForeignKeyViolation = (err: unknown): boolean =>
  err instanceof Error &&
  ((err as { code?: unknown }).code === '23503' ||
    /FOREIGN KEY constraint failed/.test(err.message));
