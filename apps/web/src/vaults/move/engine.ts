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
import {
  filesApi,
  ManifestConflictError,
  manifestSchema,
  MOVE_FILE_ID_METADATA,
  movesApi,
  secretsApi,
  type MoveItem,
  type ProviderType,
  type SecretRecord,
  type Vault,
  type VaultMove,
} from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { i18n, msg } from '../../i18n/i18n.ts';
import { folderNameFor, setFolder } from '../../storage/cloud/folders.ts';
import { contentHashMismatch } from '../../storage/hashing.ts';
import { StorageError, type StorageProvider } from '../../storage/provider.ts';
import { providerFor, registerVaultStorage } from '../../storage/providers.ts';
import { segmentDigest, sealSegment, SEGMENT_PREFIX } from '../../secrets/segments/segment.ts';
import { forgetSegments, readLog, streamOf } from '../../secrets/store/segmentLog.ts';
import { logDeps } from '../../secrets/store/sources.ts';
import { canonical, type ManifestRecord } from '../manifest/manifestCore.ts';
import type { ManifestEntries } from '../manifest/problems.ts';
import { checkAgainstManifest, manifests } from '../manifest/vaultManifest.ts';
import { isCloud, providerInfo } from '../providers.tsx';
import { sessionOf } from '../sessionContext.tsx';
import { planMove, progressMeter, type MoveProgress, type Wanted } from './plan.ts';

/** The move's failures, as ids: shown with t(text, values) by the dialog (MoveError). */
export const moveTexts = {
  mismatch: msg(
    'The copy of "{{name}}" on {{provider}} does not match the original, so the vault stays where it is. Please try again.',
  ),
  mismatchLocal: msg(
    'The copy of "{{name}}" on this browser does not match the original, so the vault stays where it is. Please try again.',
  ),
  segmentMismatch: msg(
    "A copy of this vault's secrets on {{provider}} does not match the original, so the vault stays where it is. Please try again.",
  ),
  segmentMismatchLocal: msg(
    "A copy of this vault's secrets on this browser does not match the original, so the vault stays where it is. Please try again.",
  ),
  unreadable: msg(
    "This vault's contents do not match its manifest, so it cannot be moved. The vault page lists what is wrong.",
  ),
  noManifest: msg(
    'This vault cannot be moved until it has a manifest. Lock it, unlock it, and try again.',
  ),
  missingSource: msg(
    '"{{name}}" could not be read from {{provider}}, so the vault stays where it is.',
  ),
  missingSourceLocal: msg(
    '"{{name}}" could not be read from this browser, so the vault stays where it is.',
  ),
  keptChanging: msg(
    "This vault's manifest kept changing while it was being moved. Please try again.",
  ),
  /** A file's name in the texts when this page has not decrypted it. */
  aFile: msg('a file'),
} as const;

/**
 * A move's failure meant for the user: `text` an id of moveTexts, `values` its placeholders, and
 * `texts` those placeholders that are texts themselves (a provider's name, "a file"), translated
 * as they are shown. `message` is the English sentence.
 */
export class MoveError extends Error {
  constructor(
    readonly text: string,
    readonly values: Record<string, string> = {},
    readonly texts: Record<string, string> = {},
    options?: ErrorOptions,
  ) {
    super(i18n.t(text, { ...values, ...texts, lng: 'en' }), options);
    this.name = 'MoveError';
  }
}

/** A failure that names a provider: the "this browser" text for the browser, else `text`. */
function providerError(
  type: ProviderType,
  [text, localText]: readonly [string, string],
  values: Record<string, string> = {},
  texts: Record<string, string> = {},
  options?: ErrorOptions,
): MoveError {
  return type === 'local'
    ? new MoveError(localText, values, texts, options)
    : new MoveError(text, values, { ...texts, provider: providerInfo(type).name }, options);
}

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

/**
 * The key a provider knows the vault's container by. Cloud providers find a vault's folder by
 * this key (storage/cloud/folders.ts): the source and the target of a move each get their own,
 * so both folders are reachable at once.
 */
function containerKey(vaultId: string, type: ProviderType, folder: string | null): string {
  if (!isCloud(type)) return vaultId;
  const key = `${type}:${vaultId}`;
  if (folder) setFolder(key, folder);
  return key;
}

const bytesOf = async (stream: ReadableStream<Uint8Array>) =>
  new Uint8Array(await new Response(stream).arrayBuffer());

/** Removes what a move copied to its target (cancelled, replaced or stale); best effort. */
async function removeCopies(
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

/** Stores a segment's bytes on the target and reads them back; answers the verified item. */
async function storeSegment(
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
async function copyOne(
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

const entriesOf = ({ format: _f, version: _v, prev: _p, mac: _m, ...rest }: ManifestRecord) => rest;
const withoutSegments = ({ segments: _s, ...rest }: ManifestEntries): ManifestEntries => rest;

/** The switch: the next manifest naming the target, stored with the vault's new provider. */
async function switchVault(
  vault: Vault,
  target: ProviderType,
  folder: string | null,
  change: (m: ManifestEntries) => ManifestEntries,
  secrets?: SecretRecord[],
) {
  const session = sessionOf(vault.id);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const current = await manifests.load(session, vault.id);
    if (!current) throw new MoveError(moveTexts.noManifest);
    const { version } = current.manifest;
    const entries = entriesOf(current.manifest);
    const next = change({
      ...entries,
      vault: { ...entries.vault, provider_type: target, storage_folder: folder ?? '' },
    });
    const signed: ManifestRecord = await cryptoClient().signManifest(session, {
      ...canonical(next),
      format: 'vf1-manifest',
      version: version + 1,
      prev: current.hash,
    });
    try {
      const answer = await movesApi.switch(vault.id, {
        expected_version: version,
        manifest: manifestSchema.parse(signed),
        ...(secrets ? { secrets } : {}),
      });
      await manifests.accept(session, vault.id, answer.manifest);
      return answer;
    } catch (err) {
      if (err instanceof ManifestConflictError) continue; // another write landed: again on it
      throw err;
    }
  }
  throw new MoveError(moveTexts.keptChanging);
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
