// Moving a vault to another storage provider (issue 27; docs/architecture.md, "Moving a vault"): a
// verified copy of its ciphertext, then one switch. Nothing is decrypted and no key leaves the
// Worker: file blobs and secrets segments are copied as the bytes they are, each checked on the
// target against the hash the vault recorded (and the provider's own, in its put: hashing.ts).
//
//   1. the server records the move (PUT /move), so it can be continued here or on another device;
//   2. each blob or segment not yet verified there is streamed from the source to the target,
//      its content hash compared, and recorded as verified (POST /move/items; our server records
//      a file that came up to it itself, tus move mode);
//   3. the switch (POST /move/switch): the vault's next manifest, naming the new provider and
//      folder, signed here and stored with the vault's new provider in one server transaction;
//   4. only then, and only if the user chose it, the old copies are deleted.
//
// An interruption before 3 leaves the vault as it was, on the old provider; running the move
// again plans from what the server recorded (plan.ts) and sends only the rest.
//
// The parts: the copy of one blob or segment (copy.ts), the switch (switchVault.ts) and the texts
// of what can fail (moveErrors.ts).
import {
  filesApi,
  movesApi,
  secretsApi,
  type MoveItem,
  type ProviderType,
  type SecretRecord,
  type Vault,
} from '@sealvault/protocol';
import { folderNameFor } from '../../storage/cloud/folders.ts';
import { providerFor, registerVaultStorage } from '../../storage/providers.ts';
import { sealSegment, SEGMENT_PREFIX } from '../../secrets/segments/segment.ts';
import { forgetSegments, readLog } from '../../secrets/store/segmentLog.ts';
import { logDeps } from '../../secrets/store/sources.ts';
import { checkAgainstManifest, manifests } from '../manifest/vaultManifest.ts';
import { isCloud } from '../providers.tsx';
import { sessionOf } from '../sessionContext.tsx';
import { containerKey, copyOne, removeCopies, storeSegment } from './copy.ts';
import { MoveError, moveTexts } from './moveErrors.ts';
import { planMove, progressMeter, type MoveProgress, type Wanted } from './plan.ts';
import { switchVault, withoutSegments } from './switchVault.ts';

export interface MoveRun {
  vault: Vault;
  target: ProviderType;
  /** Delete the old copies after the switch (the server deletes its own in any case). */
  deleteSource: boolean;
  signal?: AbortSignal;
  onProgress?: (p: MoveProgress) => void;
  /** A file's name for the texts (decrypted on this page), if known. */
  nameOf?: (fileId: string) => string | undefined;
}

/** Cancels the vault's recorded move: the target's copies are removed, the vault stays. */
export async function cancelMove(vaultId: string): Promise<void> {
  const { move } = await movesApi.get(vaultId);
  if (!move) return;
  const { items } = await movesApi.cancel(vaultId);
  await removeCopies(vaultId, move, items, { container: true });
}

/** What the vault holds where it is now, and the server's secrets when it keeps them. */
async function inventory(
  vault: Vault,
  target: ProviderType,
): Promise<{ wanted: Wanted[]; records?: SecretRecord[] }> {
  if (vault.vault_type === 'files') {
    const { files } = await filesApi.list(vault.id);
    const wanted = files.map((f): Wanted => ({
      kind: 'file',
      id: f.id,
      ref: f.storage_ref ?? f.id,
      checksum: f.checksum,
      size: f.ciphertext_size,
    }));
    return { wanted };
  }
  if (vault.provider_type === 'server') {
    // One snapshot segment of the server's records is written to the target (move.ts does the
    // same for a vault whose items move on unlock): nothing to copy from a provider.
    const records = (await secretsApi.list(vault.id)).secrets;
    const problems = await checkAgainstManifest(vault.id, sessionOf(vault.id), {
      secrets: records,
    });
    if (problems.length > 0) throw new MoveError(moveTexts.unreadable);
    return { wanted: [], records };
  }
  // Coming to our server, its items go with the switch (moveVault), not as segments.
  if (target === 'server') return { wanted: [] };
  const verified = await manifests.load(sessionOf(vault.id), vault.id);
  if (!verified) throw new MoveError(moveTexts.noManifest);
  const wanted = (verified.manifest.segments ?? []).map(([id, digest]): Wanted => ({
    kind: 'segment',
    id,
    ref: `${SEGMENT_PREFIX}${id}`,
    checksum: digest,
    size: null,
  }));
  return { wanted };
}

/**
 * Moves the vault (steps 1 to 4 above) and answers its record on the new provider. Throws, with
 * the vault unchanged where it was, on any failure before the switch; an abort (the signal)
 * stops at the next byte and keeps what was verified for the next run.
 */
export async function moveVault(run: MoveRun): Promise<Vault> {
  const { vault, target } = run;
  const source = vault.provider_type;
  const recorded = (await movesApi.get(vault.id)).move;
  // A move recorded to another target is abandoned first: its copies there are removed.
  if (recorded && recorded.target_provider !== target) await cancelMove(vault.id);
  const to = providerFor(target);
  let folder = recorded?.target_provider === target ? recorded.target_folder : null;
  if (!folder && isCloud(target) && to.makeFolder)
    folder = await to.makeFolder(folderNameFor(vault.name));
  const started = await movesApi.start(vault.id, {
    target_provider: target,
    target_folder: folder,
    delete_source: run.deleteSource,
  });
  const toKey = containerKey(vault.id, target, folder);
  const from = providerFor(source);
  const fromKey = containerKey(vault.id, source, vault.storage_folder ?? null);
  await to.prepare(toKey);

  const { wanted, records } = await inventory(vault, target);
  const plan = planMove(wanted, started.move.items);
  const meter = progressMeter(plan);
  run.onProgress?.(meter.snapshot());
  const verified: MoveItem[] = [];
  for (const w of plan.todo) {
    run.signal?.throwIfAborted();
    run.onProgress?.(meter.start(w));
    const item = await copyOne(
      w,
      { provider: from, key: fromKey },
      { provider: to, key: toKey, type: target },
      run,
      (sent) => run.onProgress?.(meter.sent(sent)),
    );
    // Our server recorded the file itself when its last byte was checked.
    if (!(target === 'server' && item.kind === 'file')) await movesApi.addItems(vault.id, [item]);
    verified.push(item);
    run.onProgress?.(meter.finished(item.size));
  }
  run.signal?.throwIfAborted();

  // A secrets vault leaving our server: its records as one snapshot segment on the target.
  let snapshotPin: [string, string] | null = null;
  if (records) {
    const sealed = await sealSegment(
      records.map((r) => ({
        id: r.id,
        revision: r.revision,
        data: r.data,
        created_at: new Date(r.created_at).toISOString(),
        updated_at: new Date(r.updated_at).toISOString(),
      })),
    );
    const item = await storeSegment(
      { id: sealed.pin[0], ref: sealed.name, checksum: sealed.pin[1] },
      sealed.bytes,
      { provider: to, key: toKey, type: target },
      run.signal,
    );
    await movesApi.addItems(vault.id, [item]);
    snapshotPin = [sealed.pin[0], sealed.pin[1]];
  }

  // A secrets vault coming to our server: its items, as the log in the provider holds them.
  let toServer: SecretRecord[] | undefined;
  if (vault.vault_type === 'secrets' && target === 'server' && source !== 'server') {
    const read = await readLog(logDeps(vault.id));
    if (!read || !read.clean) throw new MoveError(moveTexts.unreadable);
    toServer = read.items.map((i) => ({
      id: i.id,
      revision: i.revision,
      data: i.data,
      created_at: i.created_at,
      updated_at: i.updated_at,
    }));
  }

  const answer = await switchVault(
    vault,
    target,
    folder,
    (m) => {
      if (vault.vault_type !== 'secrets') return m;
      if (target === 'server') return withoutSegments(m);
      return snapshotPin ? { ...m, segments: [snapshotPin] } : m;
    },
    toServer,
  );
  registerVaultStorage(answer.vault);
  forgetSegments(vault.id);

  // Copies nothing wanted any more (a file deleted during an earlier run) go from the target.
  await removeCopies(vault.id, { target_provider: target, target_folder: folder }, plan.stale);
  if (run.deleteSource && source !== 'server') {
    await Promise.all(answer.old.map((o) => from.delete(fromKey, o.ref).catch(() => undefined)));
    await from.removeContainer(fromKey).catch(() => undefined);
  }
  return answer.vault;
}
