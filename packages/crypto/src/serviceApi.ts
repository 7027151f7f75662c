// The crypto service's API (service.ts implements it): every call the crypto client makes of the
// Worker, one line each, and the types they take and answer. Every argument and result is
// structured-cloneable; keys never cross it, callers hold SessionId and JobId handles instead.
import type { FetchedDownloads } from './fetched.ts';
import type { SealedFiles } from './sealedFile.ts';
import type { ChunkResult, EncryptJob } from './jobs.ts';
import type { FileId, FolderId, ItemId, JobId, SessionId, VaultId } from './ids.ts';
import type { KdfProfile } from './kdf.ts';
import type { Manifest, ManifestInput } from './manifest.ts';
import type { Bytes } from './primitives.ts';
import type { RandomBytes } from './bytes.ts';
import type { FileMeta, SecretItem } from './records.ts';
import type { NewShare, ShareKdfParams, ShareKdfText } from './share.ts';
import type { NewPasskey } from './passkey.ts';
import type { RekeyFileInput, RekeyFileOutput, RekeyItemInput } from './rotate.ts';
import type { KeySlot, UnlockOptions, VaultKey } from './slot.ts';
export type { ChunkResult, EncryptJob };

/** What rotateVault makes. */
export interface RotateOptions {
  /** The new password slot's KDF (default Argon2id's defaults). */
  kdf?: KdfProfile;
  /** Also make a recovery slot (and a new recovery key): pass true when the vault had one. */
  recovery: boolean;
  /**
   * The vault's passkey slots, carried over: each wraps the new VMK to its own public key, without
   * the passkey ([Note: passkey slot keys] in passkey.ts). Their escrow must open under the
   * session's keys (DECRYPT_FAILED otherwise).
   */
  passkeys?: KeySlot[];
}

export interface Rotated {
  /** A session under the new VMK (the old session stays open until closed or locked). */
  session: SessionId;
  /** The new slots: one committed password slot, a recovery slot when asked, the passkeys. */
  key: VaultKey;
  /** The new recovery key, shown once; only when `recovery` was asked. */
  recoveryKey?: string;
}

/** The service API. One line each; all failures are CryptoError with a stable code. */
export interface CryptoService extends FetchedDownloads, SealedFiles {
  /** New VMK and password slot; the vault stays unlocked under the returned session. */
  createVault(
    vaultId: VaultId,
    password: string,
    kdf?: KdfProfile,
  ): Promise<{ session: SessionId; key: VaultKey }>;
  /**
   * Opens the password slot; any failure is CryptoError('INVALID_PASSWORD', 'Invalid password'),
   * including a key with more than one password or recovery slot, and a legacy (uncommitted)
   * slot when `options.allowLegacy` is false (pass false once the vault has a manifest).
   */
  unlockVault(
    vaultId: VaultId,
    key: VaultKey,
    password: string,
    options?: UnlockOptions,
  ): Promise<SessionId>;
  /**
   * Opens the passkey slot of `credentialId` (base64url) with the credential's 32-byte PRF output
   * (passkey.ts); failures as unlockVault. Never runs a password derivation.
   */
  unlockWithPasskey(
    vaultId: VaultId,
    key: VaultKey,
    credentialId: string,
    prf: Bytes,
  ): Promise<SessionId>;
  /**
   * Adds a passkey slot: the password opens the VMK (one KDF run), which is sealed for the
   * passkey. INVALID_PASSWORD for a wrong password; INVALID_INPUT for a sixth passkey, a
   * credential already there or a malformed one. The other slots are kept.
   */
  addPasskeySlot(
    vaultId: VaultId,
    key: VaultKey,
    password: string,
    passkey: NewPasskey,
    options?: UnlockOptions,
  ): Promise<VaultKey>;
  /** Opens the recovery slot with a recovery key; failures as unlockVault. */
  unlockWithRecoveryKey(
    vaultId: VaultId,
    key: VaultKey,
    recoveryKey: string,
    options?: UnlockOptions,
  ): Promise<SessionId>;
  /** Forgets the keys of every session (and job) of the vault. */
  lockVault(vaultId: VaultId): Promise<void>;
  /** Forgets one session (and its jobs); idempotent. lockVault still forgets all of a vault. */
  closeSession(session: SessionId): Promise<void>;
  /** Forgets every key. */
  lockAll(): Promise<void>;
  /**
   * A new share link (ADR 0012, share.ts): its id, secret and access token (base64url), what the
   * server keeps of it (the token's hash; a password link's Argon2id parameters and salt), and
   * sessions for its outer key (the note) and inner key (the content), used like a vault's.
   */
  createShare(options?: {
    password?: string;
    kdf?: 'argon2id' | ShareKdfParams;
  }): Promise<NewShare>;
  /** A link as its recipient has it (id and secret from the URL): its token and outer session. */
  openShare(id: string, secret: string): Promise<{ token: string; outer: SessionId }>;
  /**
   * The inner session of a link: with its password and parameters when it has one. A wrong
   * password gives a session all the same, under which the content does not decrypt.
   */
  openShareContent(
    id: string,
    secret: string,
    password: { password: string; kdf: ShareKdfText } | null,
  ): Promise<SessionId>;
  /**
   * Hands an unlocked session's keys to another service of the pool through `port` (a
   * MessageChannel between two crypto Workers: the keys never pass through the page).
   */
  sendSession(session: SessionId, port: MessagePort): Promise<void>;
  /** Takes the keys sendSession sent through `port`; the session keeps its id here. */
  receiveSession(port: MessagePort): Promise<SessionId>;
  /**
   * New committed password slot (fresh salt, same VMK and slot id); other slots kept. With the
   * same old and new password it upgrades a legacy password slot (ADR 0007).
   */
  changePassword(
    vaultId: VaultId,
    key: VaultKey,
    oldPassword: string,
    newPassword: string,
    kdf?: KdfProfile,
    options?: UnlockOptions,
  ): Promise<VaultKey>;
  /** Password reset with the recovery key: a new password slot, same VMK. */
  resetPassword(
    vaultId: VaultId,
    key: VaultKey,
    recoveryKey: string,
    newPassword: string,
    kdf?: KdfProfile,
    options?: UnlockOptions,
  ): Promise<VaultKey>;
  /** Adds (or replaces) the recovery slot; the recovery key is returned once. */
  addRecoverySlot(
    vaultId: VaultId,
    key: VaultKey,
    password: string,
    options?: UnlockOptions,
  ): Promise<{ key: VaultKey; recoveryKey: string }>;
  /**
   * "Change password and rotate keys": a new VMK under a new session, its committed password
   * slot (and recovery slot when asked). The session given must be unlocked (it is not closed).
   */
  rotateVault(session: SessionId, password: string, options: RotateOptions): Promise<Rotated>;
  /**
   * Each file's FK re-wrapped, metadata re-encrypted and name look-up recomputed from `from`'s
   * keys to `to`'s (both sessions of one vault). One record that does not open: DECRYPT_FAILED.
   */
  rekeyFiles(from: SessionId, to: SessionId, files: RekeyFileInput[]): Promise<RekeyFileOutput[]>;
  /** Each secret record re-encrypted (same revision) from `from` to `to`; as rekeyFiles. */
  rekeyItems(from: SessionId, to: SessionId, items: RekeyItemInput[]): Promise<string[]>;
  /**
   * MACs the manifest (its canonical form: sorted, null texts as "") under the session's K_man.
   * INVALID_INPUT if it is malformed (duplicates, bad hex, version < 1, prev wrong).
   */
  signManifest(session: SessionId, manifest: ManifestInput): Promise<Manifest>;
  /**
   * Shape and MAC check, and the manifest's hash (for the next version's `prev` and checkChain).
   * Never throws for a bad manifest: `{ ok: false, hash: '' }`.
   */
  verifyManifest(session: SessionId, manifest: Manifest): Promise<{ ok: boolean; hash: string }>;
  /**
   * Starts encrypting one new file version: fresh FK, header, encFK. This service seals lane 0 of
   * `lanes` (default 1: every chunk); sendLane hands the others to the pool [Note: encryption lanes].
   */
  beginEncrypt(session: SessionId, fileId: FileId, lanes?: number): Promise<EncryptJob>;
  /** Hands lane `lane` (once) of an encryption begun here to another service, through `port`. */
  sendLane(job: JobId, lane: number, port: MessagePort): Promise<void>;
  /** Takes a lane that sendLane sent through `port`; resolves with this service's job for it. */
  receiveLane(port: MessagePort): Promise<JobId>;
  /**
   * Seals chunk `index` (the next of this job's lane, or INVALID_INPUT). Takes ownership of
   * `plain` and hands its buffer back as `spare` (for the caller to read its next chunk into).
   */
  sealChunk(job: JobId, index: number, plain: Bytes, final: boolean): Promise<ChunkResult>;
  /** Opens encFK and checks the header (MAC first) before any chunk. */
  beginDecrypt(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    header: Bytes,
  ): Promise<JobId>;
  /** Opens chunk `index`; resolves only with authenticated plaintext; `sealed` comes back as `spare`. */
  openChunk(job: JobId, index: number, sealed: Bytes, final: boolean): Promise<ChunkResult>;
  /** Forgets a job (idempotent). */
  endJob(job: JobId): Promise<void>;
  encryptMeta(
    session: SessionId,
    fileId: FileId,
    parentId: FolderId | null,
    meta: FileMeta,
  ): Promise<string>;
  decryptMeta(
    session: SessionId,
    fileId: FileId,
    parentId: FolderId | null,
    encMeta: string,
  ): Promise<FileMeta>;
  /**
   * Many files' metadata in one call (one Worker round trip), like decryptItems: each result is
   * the metadata, or null when that record does not open.
   */
  decryptMetas(
    session: SessionId,
    files: { id: FileId; parentId: FolderId | null; encMeta: string }[],
  ): Promise<(FileMeta | null)[]>;
  /** Seals a text as this device's cache of the vault (vault-format.md "Device cache"). */
  sealCache(session: SessionId, text: string): Promise<Bytes>;
  /** What sealCache sealed for this vault; DECRYPT_FAILED for anything else. */
  openCache(session: SessionId, sealed: Bytes): Promise<string>;
  encryptItem(
    session: SessionId,
    itemId: ItemId,
    revision: number,
    item: SecretItem,
  ): Promise<string>;
  decryptItem(
    session: SessionId,
    itemId: ItemId,
    revision: number,
    data: string,
  ): Promise<SecretItem>;
  /**
   * Many items in one call (one Worker round trip): each result is the item, or null when that
   * record does not open (tampered, moved, wrong revision). Never throws for a bad record.
   */
  decryptItems(
    session: SessionId,
    items: { id: ItemId; revision: number; data: string }[],
  ): Promise<(SecretItem | null)[]>;
  /** The name look-up HMAC, lowercase hex. */
  lookupName(session: SessionId, parentId: FolderId | null, name: string): Promise<string>;
  /**
   * SHA-256 of one block of the content hash (no key involved): done here so that a Worker, not
   * the page, spends the CPU. Takes `block` and hands it back.
   */
  digestBlock(block: Bytes): Promise<{ digest: Bytes; block: Bytes }>;
}

export interface ServiceOptions {
  /** Randomness; tests pass a deterministic one to reproduce vectors. */
  random?: RandomBytes;
  /** The network, for downloads fetched in the Worker (fetched.ts); tests pass their own. */
  fetch?: typeof fetch;
}
