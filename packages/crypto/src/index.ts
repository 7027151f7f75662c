// @sealvault/crypto: the vf1 vault format (docs/vault-format.md). The UI uses a CryptoClient:
//
//   import CryptoWorker from '@sealvault/crypto/worker?worker';   // Vite's Worker import
//   const crypto = createCryptoClient(workerTransport(new CryptoWorker()));   // or inProcessTransport()
//   const { session, key } = await crypto.createVault(vaultId, password);   // key -> server
//   const session2 = await crypto.unlockVault(vaultId, key, password);      // or 'Invalid password'
//
// Keys stay inside the service (the Worker); the client holds SessionId handles. Everything here
// is pure TypeScript over WebCrypto and hash-wasm: it runs in browsers, Workers and Node.
export {
  createCryptoClient,
  type ClientOptions,
  type CryptoClient,
  type EncryptedFileStream,
} from './client.ts';
export type { SealedPiece } from './sealedFile.ts';
export {
  inProcessTransport,
  serve,
  workerTransport,
  type Endpoint,
  type Transport,
} from './rpc.ts';
export {
  createCryptoService,
  type CryptoService,
  type NewShare,
  type ShareKdfParams,
  type ShareKdfText,
  type RotateOptions,
  type Rotated,
  type ServiceOptions,
} from './service.ts';
export { CryptoError, MESSAGES, type CryptoErrorCode, type WireError } from './errors.ts';
export {
  CHUNK_BYTES,
  SEALED_CHUNK_BYTES,
  TAG_BYTES,
  ciphertextSize,
  plaintextSize,
  planRange,
  type RangePlan,
} from './chunk.ts';
export { HEADER_BYTES } from './header.ts';
export {
  CONTENT_HASH_BLOCK_BYTES,
  blockDigest,
  contentHash,
  contentHashOfDigests,
} from './contentHash.ts';
export {
  ARGON2ID_DEFAULT,
  ARGON2ID_FLOOR,
  LIMITS as KDF_LIMITS,
  PBKDF2_DEFAULT,
  type KdfParams,
  type KdfProfile,
} from './kdf.ts';
export {
  MAX_PASSKEY_SLOTS,
  PASSKEY_NAME_MAX,
  PASSKEY_SALT_BYTES,
  credentialIdBytes,
  type NewPasskey,
} from './passkey.ts';
export {
  hasLegacySlots,
  isLegacySlot,
  slotFingerprint,
  type KeySlot,
  type UnlockOptions,
  type VaultKey,
} from './slot.ts';
export {
  canonicalManifest,
  checkChain,
  fileEntryDigest,
  isManifest,
  isUnsignedManifest,
  itemEntryDigest,
  manifestBody,
  manifestHash,
  type ChainHead,
  type ChainVerdict,
  type FileEntry,
  type ItemEntry,
  type Manifest,
  type ManifestInput,
  type ManifestVault,
  type UnsignedManifest,
} from './manifest.ts';
export type { RekeyFileInput, RekeyFileOutput, RekeyItemInput } from './rotate.ts';
export { lookupOf } from './rotate.ts';
export { shareUuid, fromBase64Url, toBase64Url, SHARE_LABELS } from './share.ts';
export type { FileMeta, SecretItem } from './records.ts';
export { FOLDER_MIME } from './records.ts';
export {
  asFileId,
  asFolderId,
  asItemId,
  asVaultId,
  type FileId,
  type FolderId,
  type ItemId,
  type JobId,
  type SessionId,
  type SlotId,
  type VaultId,
} from './ids.ts';
