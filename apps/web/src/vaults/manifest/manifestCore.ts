// The manifest protocol of one device (ADR 0007): read and verify the server's manifest against
// what this device has seen, write the next version with compare-and-swap, and create version 1.
// Its collaborators (the API, the crypto Worker, the device store) are passed in, so the rules
// are tested without a browser.
import { i18n, msg } from '../../i18n/i18n.ts';
import type { ManifestDeviceStore } from './deviceStore.ts';
import type { ManifestEntries } from './problems.ts';

/** The manifest as the server stores it (ADR 0007). */
export interface ManifestRecord extends ManifestEntries {
  format: 'vf1-manifest';
  version: number;
  prev: string;
  mac: string;
}
export type UnsignedManifestRecord = Omit<ManifestRecord, 'mac'>;

export type ChainVerdict = 'ok' | 'older' | 'fork' | 'newer-unlinked';

export interface ManifestDeps<S> {
  fetch(vaultId: string): Promise<ManifestRecord | null>;
  /** Compare-and-swap; false when the stored version was not `expected`. */
  put(vaultId: string, expected: number, manifest: ManifestRecord): Promise<boolean>;
  sign(session: S, vaultId: string, unsigned: UnsignedManifestRecord): Promise<ManifestRecord>;
  verify(
    session: S,
    vaultId: string,
    manifest: ManifestRecord,
  ): Promise<{ ok: boolean; hash: string }>;
  chain(
    seen: { version: number; hash: string } | null,
    next: ManifestRecord,
    nextHash: string,
  ): ChainVerdict;
  store: ManifestDeviceStore;
  /** The clock (milliseconds), for a primed manifest's age; Date.now by default. */
  now?: () => number;
}

/** How long the manifest an unlock verified answers the vault's first load ([Note: manifest at unlock]). */
export const PRIMED_MS = 10_000;

// The texts are marked for translation (msg) or translated when they are said (i18n.t).
export const integrityTexts = {
  invalid: msg(
    "This vault's manifest does not verify: it was changed outside this app. The vault's contents are not shown.",
  ),
  older: (version: number, seen: number) =>
    i18n.t(
      "The server returned an older version of this vault (manifest version {{version}}; this device has seen version {{seen}}). The vault's contents are not shown.",
      { version, seen },
    ),
  fork: (version: number) =>
    i18n.t(
      "The server returned a version of this vault that conflicts with the one this device has seen (manifest version {{version}}). The vault's contents are not shown.",
      { version },
    ),
  missing: (seen: number) =>
    i18n.t(
      "The server returned no manifest for this vault, but this device has seen version {{seen}} of it. The vault's contents are not shown.",
      { seen },
    ),
  slotsChanged: msg(
    "This vault's key slots do not match its manifest: they were changed outside this app. Unlock is refused.",
  ),
  slotAdded: msg(
    'This vault has a key slot this device does not know: it was added or replaced outside this app. Unlock is refused.',
  ),
  uncommitted: msg(
    "This vault's key slot was replaced outside this app by one without a commitment, which could open under several passwords. Unlock is refused.",
  ),
  conflict: msg(
    "This vault's manifest kept changing while it was being updated. Please try again.",
  ),
  /** A check that failed because another device rotated the keys while this one held them. */
  rotatedElsewhere: msg(
    "This vault's keys were changed on another device. Lock it and unlock it again with its current password.",
  ),
} as const;

// Every text here, in problems.ts and in passwordChange.ts is listed in docs/product.md
// ("Manifest checks"); texts.test.ts keeps the two equal.

/**
 * A check that refuses the vault: the message says what is wrong, in the user's words and
 * language (a text marked msg() is translated here, as the error is made, so that every place
 * that shows the message shows it translated).
 */
export class VaultIntegrityError extends Error {
  override readonly name = 'VaultIntegrityError';
  constructor(text: string) {
    super(i18n.t(text));
  }
}

export interface Verified {
  manifest: ManifestRecord;
  hash: string;
}

const strip = ({ mac: _mac, ...rest }: ManifestRecord): UnsignedManifestRecord => rest;

export function createManifestCore<S>(deps: ManifestDeps<S>) {
  // The last manifest this page accepted, per vault: a commit's first try builds on it instead of
  // fetching and verifying the same manifest again; if another device wrote since, the
  // compare-and-swap refuses the write and the next try reads the server's.
  const heads = new Map<string, Verified>();

  /** Verifies a manifest and its place after what this device has seen, then remembers it. */
  async function accept(session: S, vaultId: string, manifest: ManifestRecord): Promise<Verified> {
    const seen = await deps.store.get(vaultId);
    const { ok, hash } = await deps.verify(session, vaultId, manifest);
    if (!ok) throw new VaultIntegrityError(integrityTexts.invalid);
    const verdict = deps.chain(seen, manifest, hash);
    if (verdict === 'older' && seen)
      throw new VaultIntegrityError(integrityTexts.older(manifest.version, seen.version));
    if (verdict === 'fork') throw new VaultIntegrityError(integrityTexts.fork(manifest.version));
    if (!seen || manifest.version > seen.version || hash !== seen.hash)
      await deps.store.put(vaultId, { version: manifest.version, hash });
    const verified = { manifest, hash };
    heads.set(vaultId, verified);
    return verified;
  }

  // [Note: manifest at unlock] The unlock fetches and verifies the manifest, and the vault's first
  // list checks its records against the manifest right after: the unlock hands its verified
  // manifest to that first load (primed, taken once, for a few seconds), so an unlock fetches
  // the manifest once, not three times (bench/RESULTS.md "Speed II"). Every later load fetches.
  const primed = new Map<string, { session: S; verified: Verified; at: number }>();

  /** The next load of this vault by `session` (once, within PRIMED_MS) answers `verified`. */
  function prime(session: S, vaultId: string, verified: Verified): void {
    primed.set(vaultId, { session, verified, at: deps.now?.() ?? Date.now() });
  }

  /** The server's manifest, verified; null only for a vault that never had one on any device here. */
  async function load(session: S, vaultId: string): Promise<Verified | null> {
    const ready = primed.get(vaultId);
    primed.delete(vaultId);
    if (
      ready &&
      ready.session === session &&
      (deps.now?.() ?? Date.now()) - ready.at < PRIMED_MS &&
      heads.get(vaultId) === ready.verified
    )
      return ready.verified;
    const manifest = await deps.fetch(vaultId);
    if (!manifest) {
      const seen = await deps.store.get(vaultId);
      if (seen) throw new VaultIntegrityError(integrityTexts.missing(seen.version));
      return null;
    }
    return accept(session, vaultId, manifest);
  }

  // One write at a time per vault from this tab; other tabs and devices meet the CAS.
  const queues = new Map<string, Promise<unknown>>();

  /**
   * Writes the next version: `change` gets the current manifest (without version, prev and MAC)
   * and answers the new contents. On a lost race the current one is re-read, re-verified and
   * `change` applied again. A vault without a manifest that this device never saw one of (only
   * when it was opened without unlockChecked, as some tests do) is left without: null.
   */
  function commit(
    session: S,
    vaultId: string,
    change: (current: UnsignedManifestRecord) => ManifestEntries | Promise<ManifestEntries>,
  ): Promise<Verified | null> {
    const run = async (): Promise<Verified | null> => {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const held = attempt === 0 ? heads.get(vaultId) : undefined;
        const current = held ?? (await load(session, vaultId));
        if (!current) return null;
        const next = await change(strip(current.manifest));
        const signed = await deps.sign(session, vaultId, {
          ...canonical(next),
          format: 'vf1-manifest',
          version: current.manifest.version + 1,
          prev: current.hash,
        });
        if (await deps.put(vaultId, current.manifest.version, signed))
          return accept(session, vaultId, signed);
      }
      throw new VaultIntegrityError(integrityTexts.conflict);
    };
    const previous = queues.get(vaultId) ?? Promise.resolve();
    const result = previous.then(run, run);
    queues.set(
      vaultId,
      result.catch(() => undefined),
    );
    return result;
  }

  /** Version 1, for a vault that has none (made before the manifest, or never unlocked). */
  async function create(session: S, vaultId: string, entries: ManifestEntries): Promise<Verified> {
    const signed = await deps.sign(session, vaultId, {
      ...canonical(entries),
      format: 'vf1-manifest',
      version: 1,
      prev: '',
    });
    if (!(await deps.put(vaultId, 0, signed))) {
      // Another device made it first: use theirs.
      const theirs = await load(session, vaultId);
      if (!theirs) throw new VaultIntegrityError(integrityTexts.conflict);
      return theirs;
    }
    return accept(session, vaultId, signed);
  }

  return { load, commit, create, accept, prime };
}

const byId = (a: readonly [string, ...unknown[]], b: readonly [string, ...unknown[]]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;

/** Sorted as the format requires: slots ascending, files and secrets by id. */
export function canonical(entries: ManifestEntries): ManifestEntries {
  return {
    vault: { ...entries.vault },
    slots: [...entries.slots].sort(),
    files: [...entries.files].sort(byId),
    secrets: [...entries.secrets].sort(byId),
    // In the order they are folded (ADR 0008): never sorted.
    ...(entries.segments ? { segments: [...entries.segments] } : {}),
  };
}

/** Helpers for `commit` changes. */
export const entriesWith = {
  file(m: ManifestEntries, id: string, digest: string | null): ManifestEntries {
    const files = m.files.filter(([f]) => f !== id);
    return { ...m, files: digest === null ? files : [...files, [id, digest] as [string, string]] };
  },
  secret(m: ManifestEntries, id: string, entry: { revision: number; digest: string } | null) {
    const secrets = m.secrets.filter(([s]) => s !== id);
    return {
      ...m,
      secrets:
        entry === null
          ? secrets
          : [...secrets, [id, entry.revision, entry.digest] as [string, number, string]],
    };
  },
};
