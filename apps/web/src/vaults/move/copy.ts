// One step of a vault's move (engine.ts, step 2): a blob or secrets segment streamed from the
// source provider to the target and checked there against the hash the vault recorded, and the
// removal of copies a move no longer wants. Apart from the engine, which plans and records the
// move, since this is the part that talks to the providers byte by byte.
import {
  MOVE_FILE_ID_METADATA,
  type MoveItem,
  type ProviderType,
  type VaultMove,
} from '@sealvault/protocol';
import { setFolder } from '../../storage/cloud/folders.ts';
import { contentHashMismatch } from '../../storage/hashing.ts';
import { StorageError, type StorageProvider } from '../../storage/provider.ts';
import { providerFor } from '../../storage/providers.ts';
import { segmentDigest } from '../../secrets/segments/segment.ts';
import { streamOf } from '../../secrets/store/segmentLog.ts';
import { isCloud } from '../providers.tsx';
import type { MoveRun } from './engine.ts';
import { moveTexts, providerError } from './moveErrors.ts';
import type { Wanted } from './plan.ts';

/**
 * The key a provider knows the vault's container by. Cloud providers find a vault's folder by
 * this key (storage/cloud/folders.ts): the source and the target of a move each get their own,
 * so both folders are reachable at once.
 */
export function containerKey(vaultId: string, type: ProviderType, folder: string | null): string {
  if (!isCloud(type)) return vaultId;
  const key = `${type}:${vaultId}`;
  if (folder) setFolder(key, folder);
  return key;
}

const bytesOf = async (stream: ReadableStream<Uint8Array>) =>
  new Uint8Array(await new Response(stream).arrayBuffer());

/** Removes what a move copied to its target (cancelled, replaced or stale); best effort. */
export async function removeCopies(
  vaultId: string,
  move: Pick<VaultMove, 'target_provider' | 'target_folder'>,
  items: readonly MoveItem[],
  { container = false } = {},
): Promise<void> {
  // Our server removes what came up to it itself.
  if (move.target_provider === 'server') return;
  const provider = providerFor(move.target_provider);
  const key = containerKey(vaultId, move.target_provider, move.target_folder);
  await Promise.all(items.map((i) => provider.delete(key, i.ref).catch(() => undefined)));
  if (container) await provider.removeContainer(key).catch(() => undefined);
}

/** Stores a segment's bytes on the target and reads them back; answers the verified item. */
export async function storeSegment(
  w: Pick<Wanted, 'id' | 'ref' | 'checksum'>,
  bytes: Uint8Array<ArrayBuffer>,
  to: { provider: StorageProvider; key: string; type: ProviderType },
  signal: AbortSignal | undefined,
  onSent: (sent: number) => void = () => undefined,
): Promise<MoveItem> {
  const stored = await to.provider.put(to.key, w.ref, bytes.length, streamOf(bytes), {
    signal,
    onProgress: onSent,
  });
  const back = await bytesOf(await to.provider.get(to.key, stored.ref, undefined, signal));
  if ((await segmentDigest(back)) !== w.checksum) {
    await to.provider.delete(to.key, stored.ref).catch(() => undefined);
    throw providerError(to.type, [moveTexts.segmentMismatch, moveTexts.segmentMismatchLocal]);
  }
  return { kind: 'segment', id: w.id, ref: stored.ref, checksum: w.checksum, size: bytes.length };
}

/** Copies one blob or segment and checks it on the target; answers the verified item. */
export async function copyOne(
  w: Wanted,
  from: { provider: StorageProvider; key: string },
  to: { provider: StorageProvider; key: string; type: ProviderType },
  run: MoveRun,
  onSent: (sent: number) => void,
): Promise<MoveItem> {
  const known = run.nameOf?.(w.id);
  const name: Record<string, string> = known === undefined ? {} : { name: known };
  const nameText: Record<string, string> = known === undefined ? { name: moveTexts.aFile } : {};
  const mismatch = (options?: ErrorOptions) =>
    providerError(to.type, [moveTexts.mismatch, moveTexts.mismatchLocal], name, nameText, options);
  const source = await from.provider.get(from.key, w.ref, undefined, run.signal).catch((err) => {
    if (err instanceof StorageError && err.code === 'not_found')
      throw providerError(
        run.vault.provider_type,
        [moveTexts.missingSource, moveTexts.missingSourceLocal],
        name,
        nameText,
        { cause: err },
      );
    throw err;
  });
  if (w.kind === 'segment') {
    // Segments are small: read whole, checked against the manifest's pin before they are sent.
    const bytes = await bytesOf(source);
    if ((await segmentDigest(bytes)) !== w.checksum)
      throw providerError(run.vault.provider_type, [
        moveTexts.segmentMismatch,
        moveTexts.segmentMismatchLocal,
      ]);
    return storeSegment(w, bytes, to, run.signal, onSent);
  }
  const size = w.size ?? 0;
  const stored = await to.provider
    .put(to.key, w.id, size, source, {
      signal: run.signal,
      onProgress: onSent,
      // Our server as the target: the existing file's ciphertext, no new record (tus move mode).
      ...(to.type === 'server'
        ? { record: { [MOVE_FILE_ID_METADATA]: w.id, checksum: w.checksum } }
        : {}),
    })
    .catch((err: unknown) => {
      // The provider's own hash of what it holds (Dropbox's content_hash, OneDrive's
      // quickXorHash, Drive's md5Checksum) differs from the bytes sent: said as a move says it.
      if (err instanceof StorageError && err.message === contentHashMismatch)
        throw mismatch({ cause: err });
      throw err;
    });
  if (stored.contentHash !== w.checksum || stored.size !== size) {
    if (to.type !== 'server') await to.provider.delete(to.key, stored.ref).catch(() => undefined);
    throw mismatch();
  }
  return { kind: 'file', id: w.id, ref: stored.ref, checksum: w.checksum, size };
}
