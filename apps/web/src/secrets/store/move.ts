// Moving an existing secrets vault's items from our server to the provider it names (ADR 0008,
// "Existing vaults"; issue 26). A vault made before secrets lived in their provider keeps its items
// on our server; its next unlock moves them, after one sentence saying so (SecretsManager):
//   1. the server's records are checked against the verified manifest (only what it vouches for
//      moves; a vault that does not match stays where it is and shows why);
//   2. a cloud vault without a folder gets one (the vault records it once: PATCH storage_folder);
//   3. one snapshot segment of the records is written to the provider and read back;
//   4. the manifest's next version pins it (and the folder), by compare-and-swap;
//   5. the server's copies are deleted (DELETE /secrets, refused by the server until step 4).
// An interruption before 4 leaves the vault on our server and an unpinned segment (an orphan);
// after it, the next unlock finishes 5 (finishMove). Nothing is ever held in one place only
// before it is verified in the other.
import { secretsApi, vaultsApi, type SecretRecord, type Vault } from '@sealvault/protocol';
import { folderNameFor, setFolder } from '../../storage/cloud/folders.ts';
import type { StorageProvider } from '../../storage/provider.ts';
import type { Problem } from '../../vaults/manifest/problems.ts';
import { sealSegment, segmentDigest, type ItemRecord } from '../segments/segment.ts';
import { streamOf, type LogDeps } from './segmentLog.ts';
import { i18n, msg } from '../../i18n/i18n.ts';

export const moveTexts = {
  /** The one sentence shown while the items move (in the language shown when it starts). */
  moving: (provider: string) =>
    provider === 'this browser'
      ? i18n.t(
          "Moving this vault's secrets from SealVault's server to this browser: they are written there, checked, and then deleted from the server.",
        )
      : i18n.t(
          "Moving this vault's secrets from SealVault's server to {{provider}}: they are written there, checked, and then deleted from the server.",
          { provider },
        ),
  /** A "This browser" vault opened in a browser that does not hold its items. */
  elsewhere: msg(
    'This vault keeps its secrets in the browser it was made in, and they are not in this one. Open it in that browser.',
  ),
  unverified: (provider: string) =>
    provider === 'this browser'
      ? i18n.t(
          "The copy written to this browser could not be read back as written, so this vault's secrets stay on SealVault's server for now. Please try again.",
        )
      : i18n.t(
          "The copy written to {{provider}} could not be read back as written, so this vault's secrets stay on SealVault's server for now. Please try again.",
          { provider },
        ),
} as const;

export interface MoveDeps extends LogDeps {
  vault: Vault;
  /** The provider's display name, for the texts. */
  providerName: string;
  makeFolder?: StorageProvider['makeFolder'];
  /** What the server listed, checked against the manifest (vaultManifest.checkAgainstManifest). */
  check(records: SecretRecord[]): Promise<Problem[]>;
}

export type MoveResult =
  /** Moved now, or by another device meanwhile: read the log. */
  | { kind: 'moved' }
  /** Not moved: the server's records do not match the manifest; `problems` say how. */
  | { kind: 'refused'; records: SecretRecord[]; problems: Problem[] };

/** A time as the segment format writes it (ISO 8601 UTC with milliseconds). */
const iso = (t: string) => new Date(t).toISOString();

const toItem = (r: SecretRecord): ItemRecord => ({
  id: r.id,
  revision: r.revision,
  data: r.data,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/**
 * The one difference a move itself makes before its manifest write: the folder it recorded on a
 * vault whose manifest still pins none (step 2). Not a problem; anything else is.
 */
export const ownFolder = (p: Problem): boolean =>
  p.kind === 'vault-field' && p.field === 'storage_folder' && p.expected === '';

/** Stops a commit whose manifest changed under the move. */
class Abandon extends Error {}

/** Moves the vault's items to its provider (steps 1 to 5 above). */
export async function moveToProvider(deps: MoveDeps): Promise<MoveResult> {
  const { vault } = deps;
  const records = (await secretsApi.list(vault.id)).secrets;
  const problems = (await deps.check(records)).filter((p) => !ownFolder(p));
  if (problems.length > 0) return { kind: 'refused', records, problems };

  // The folder is recorded on the vault as soon as it is made, so a move that stops later uses
  // it again instead of making another; the manifest pins it with the segments (step 4).
  let folder = vault.storage_folder ?? '';
  if (!folder && deps.makeFolder) {
    folder = await deps.makeFolder(folderNameFor(vault.name));
    await vaultsApi.update(vault.id, { storage_folder: folder });
  }
  if (folder) setFolder(vault.id, folder);
  const sealed = await sealSegment(records.map(toItem));
  await deps.blobs.put(vault.id, sealed.name, sealed.bytes.length, streamOf(sealed.bytes));
  // Read back before anything depends on it; until it is pinned it may simply be removed.
  const verified = await deps.blobs
    .get(vault.id, sealed.name)
    .then(async (stream) => segmentDigest(new Uint8Array(await new Response(stream).arrayBuffer())))
    .then((digest) => digest === sealed.pin[1])
    .catch(() => false);
  if (!verified) {
    await deps.blobs.delete(vault.id, sealed.name).catch(() => undefined);
    throw new Error(moveTexts.unverified(deps.providerName));
  }

  const pinnedIds = records
    .map((r) => `${r.id}:${r.revision}`)
    .sort()
    .join();
  try {
    const done = await deps.manifests.commit((m) => {
      // Another device moved it first, or an item changed since the check: start again later.
      if (m.segments) throw new Abandon('moved');
      if (
        m.secrets
          .map(([id, rev]) => `${id}:${rev}`)
          .sort()
          .join() !== pinnedIds
      )
        throw new Abandon('changed');
      return {
        ...m,
        vault: { ...m.vault, storage_folder: folder },
        segments: [[...sealed.pin]],
      };
    });
    if (!done) throw new Abandon('no manifest');
  } catch (err) {
    if (!(err instanceof Abandon)) throw err; // it may be pinned: kept
    await deps.blobs.delete(vault.id, sealed.name).catch(() => undefined);
    if (err.message !== 'moved')
      throw new Error(moveTexts.unverified(deps.providerName), { cause: err });
  }
  await finishMove(deps.vault, folder);
  return { kind: 'moved' };
}

/**
 * What a move leaves to do once the manifest pins segments: the folder recorded on the vault
 * (when it was made by the move) and the server's copies deleted. Calling it again changes nothing.
 */
export async function finishMove(vault: Vault, pinnedFolder: string): Promise<void> {
  if (pinnedFolder && !vault.storage_folder)
    await vaultsApi.update(vault.id, { storage_folder: pinnedFolder });
  await secretsApi.removeMoved(vault.id);
}
