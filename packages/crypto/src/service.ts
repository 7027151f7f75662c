// The crypto service: the only place that holds keys. In the browser it runs inside the Worker
// (worker.ts serves it); in Node or tests it is called in-process. Its API, every call and the
// types they take, is serviceApi.ts; keys never leave it, callers hold SessionId and JobId
// handles instead. Sections cited are of vault-format.md.
import { randomBytes, toHex } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { fetchedDownloads } from './fetched.ts';
import { sealedFiles } from './sealedFile.ts';
import { createFileJobs } from './jobs.ts';
import { receiveFrom, sendTo } from './peers.ts';
import { blockDigest } from './contentHash.ts';
import {
  asFileId,
  asFolderId,
  asItemId,
  asVaultId,
  type FolderId,
  type SessionId,
  type VaultId,
} from './ids.ts';
import { deriveVaultKeys, type VaultKeys } from './keys.ts';
import * as manifests from './manifest.ts';
import type { Bytes } from './primitives.ts';
import * as records from './records.ts';
import * as batch from './recordBatch.ts';
import * as share from './share.ts';
import * as rotation from './rotate.ts';
import { addPasskeySlotTo, openVaultKeyWithPasskey, rewrapPasskeySlot } from './passkey.ts';
import {
  addRecoverySlot,
  createVaultKey,
  newPasswordSlot,
  newRecoverySlot,
  openVaultKey,
  replaceSlotSecret,
  type UnlockOptions,
  type VaultKey,
} from './slot.ts';
import type { CryptoService, ServiceOptions } from './serviceApi.ts';

export type { ChunkResult, EncryptJob } from './jobs.ts';
export type { CryptoService, RotateOptions, Rotated, ServiceOptions } from './serviceApi.ts';
export type { NewShare, ShareKdfParams, ShareKdfText } from './share.ts';

export function createCryptoService(options: ServiceOptions = {}): CryptoService {
  const random = options.random ?? randomBytes;
  const sessions = new Map<SessionId, VaultKeys>();
  const handle = <T extends string>() => toHex(random(16)) as T;

  const keysOf = (session: SessionId): VaultKeys => {
    const keys = sessions.get(session);
    if (!keys) throw new CryptoError('LOCKED');
    return keys;
  };
  const files = createFileJobs(random, keysOf, (s) => sessions.has(s));
  const isKeys = (v: unknown): v is VaultKeys => {
    const k = v as Partial<VaultKeys> | null;
    const isKey = (x: unknown) => x instanceof CryptoKey && !x.extractable;
    return (
      typeof k?.vaultId === 'string' &&
      isKey(k.wrap) &&
      isKey(k.meta) &&
      isKey(k.item) &&
      isKey(k.lookup) &&
      isKey(k.manifest)
    );
  };
  const parent = (id: string | null): FolderId | null => (id === null ? null : asFolderId(id));

  async function startSession(vaultId: VaultId, vmk: Bytes): Promise<SessionId> {
    try {
      const session = handle<SessionId>();
      sessions.set(session, await deriveVaultKeys(vmk, vaultId));
      return session;
    } finally {
      vmk.fill(0);
    }
  }

  async function unlock(
    vaultId: VaultId,
    key: VaultKey,
    secret: string,
    kind: 'password' | 'recovery',
    options: UnlockOptions | undefined,
  ) {
    let id: VaultId;
    try {
      id = asVaultId(vaultId);
    } catch {
      throw new CryptoError('INVALID_PASSWORD');
    }
    const { vmk } = await openVaultKey(id, key, secret, kind, options ?? {});
    return startSession(id, vmk);
  }

  return {
    async createVault(vaultId, password, kdf) {
      const id = asVaultId(vaultId);
      const { key, vmk } = await createVaultKey(id, password, kdf, random);
      return { session: await startSession(id, vmk), key };
    },
    unlockVault: (vaultId, key, password, options) =>
      unlock(vaultId, key, password, 'password', options),
    unlockWithRecoveryKey: (vaultId, key, rk, options) =>
      unlock(vaultId, key, rk, 'recovery', options),
    async unlockWithPasskey(vaultId, key, credentialId, prf) {
      let id: VaultId;
      try {
        id = asVaultId(vaultId);
      } catch {
        throw new CryptoError('INVALID_PASSWORD');
      }
      try {
        const { vmk } = await openVaultKeyWithPasskey(id, key, credentialId, prf);
        return await startSession(id, vmk);
      } finally {
        prf.fill(0);
      }
    },
    async addPasskeySlot(vaultId, key, password, passkey, options) {
      const id = asVaultId(vaultId);
      try {
        const { vmk } = await openVaultKey(id, key, password, 'password', options ?? {});
        try {
          return await addPasskeySlotTo(id, key, vmk, passkey, random);
        } finally {
          vmk.fill(0);
        }
      } finally {
        passkey.prf?.fill?.(0);
      }
    },
    lockVault(vaultId) {
      for (const [s, keys] of sessions)
        if (keys.vaultId === vaultId.toLowerCase()) sessions.delete(s);
      files.sweep();
      return Promise.resolve();
    },
    closeSession(session) {
      sessions.delete(session);
      files.sweep();
      return Promise.resolve();
    },
    lockAll() {
      sessions.clear();
      files.sweep();
      return Promise.resolve();
    },
    sendSession: (session, port) => sendTo(port, () => ({ session, keys: keysOf(session) })),
    async receiveSession(port) {
      const { session, keys } = await receiveFrom(port);
      if (typeof session !== 'string' || !/^[0-9a-f]{32}$/.test(session) || !isKeys(keys)) {
        throw new CryptoError('INVALID_INPUT');
      }
      sessions.set(session as SessionId, keys);
      return session as SessionId;
    },
    // Share links (share.ts): the keys are derived there; here they become sessions.
    async createShare(opts) {
      const { outerKey, innerKey, ...made } = await share.newShare(random, opts);
      const uuid = asVaultId(made.uuid);
      return {
        ...made,
        outer: await startSession(uuid, outerKey),
        inner: await startSession(uuid, innerKey),
      };
    },
    async openShare(id, secret) {
      const { uuid, token, outerKey } = await share.openShareKeys(id, secret);
      return { token, outer: await startSession(asVaultId(uuid), outerKey) };
    },
    async openShareContent(id, secret, password) {
      const { uuid, innerKey } = await share.openShareContentKey(id, secret, password);
      return startSession(asVaultId(uuid), innerKey);
    },
    changePassword: (vaultId, key, oldPassword, newPassword, kdf, options) =>
      replaceSlotSecret(
        asVaultId(vaultId),
        key,
        { secret: oldPassword, kind: 'password' },
        newPassword,
        kdf,
        random,
        options,
      ),
    resetPassword: (vaultId, key, recoveryKey, newPassword, kdf, options) =>
      replaceSlotSecret(
        asVaultId(vaultId),
        key,
        { secret: recoveryKey, kind: 'recovery' },
        newPassword,
        kdf,
        random,
        options,
      ),
    addRecoverySlot: (vaultId, key, password, options) =>
      addRecoverySlot(asVaultId(vaultId), key, password, random, options),
    async rotateVault(session, password, options) {
      const from = keysOf(session);
      const { vaultId } = from;
      const kdf = options?.kdf;
      const vmk = random(32);
      try {
        const slot = await newPasswordSlot(vaultId, password, kdf, vmk, random);
        const extra = options?.recovery ? await newRecoverySlot(vaultId, vmk, random) : null;
        const passkeys = options?.passkeys ?? [];
        if (!Array.isArray(passkeys)) throw new CryptoError('INVALID_INPUT');
        const to = await deriveVaultKeys(vmk, vaultId);
        const carried = await Promise.all(
          passkeys.map((p) => rewrapPasskeySlot(vaultId, p, from, to, vmk, random)),
        );
        const key: VaultKey = {
          format: 'vf1',
          slots: [slot, ...(extra ? [extra.slot] : []), ...carried],
        };
        const next = handle<SessionId>();
        sessions.set(next, to);
        return extra
          ? { session: next, key, recoveryKey: extra.recoveryKey }
          : { session: next, key };
      } finally {
        vmk.fill(0);
      }
    },
    rekeyFiles: async (from, to, list) =>
      rotation.rekeyFiles(keysOf(from), keysOf(to), list, random),
    rekeyItems: async (from, to, list) =>
      rotation.rekeyItems(keysOf(from), keysOf(to), list, random),
    signManifest: async (s, manifest) => manifests.signManifest(keysOf(s), manifest),
    verifyManifest: async (s, manifest) => manifests.verifyManifest(keysOf(s), manifest),

    beginEncrypt: files.beginEncrypt,
    sendLane: (job, lane, port) => sendTo(port, () => files.laneOf(job, lane)),
    receiveLane: async (port) => files.adoptLane(await receiveFrom(port)),
    sealChunk: files.sealChunk,
    beginDecrypt: files.beginDecrypt,
    openChunk: files.openChunk,
    endJob: files.endJob,
    ...fetchedDownloads(files, options.fetch),
    ...sealedFiles(files),

    encryptMeta: async (s, fileId, parentId, meta) =>
      records.encryptMeta(keysOf(s), asFileId(fileId), parent(parentId), meta, random),
    decryptMeta: async (s, fileId, parentId, encMeta) =>
      records.decryptMeta(keysOf(s), asFileId(fileId), parent(parentId), encMeta),
    // [Note: batch record opening] in recordBatch.ts.
    decryptMetas: async (s, list) => batch.decryptMetas(keysOf(s), list),
    sealCache: async (s, text) => records.sealCache(keysOf(s), text, random),
    openCache: async (s, sealed) => records.openCache(keysOf(s), sealed),
    encryptItem: async (s, itemId, revision, item) =>
      records.encryptItem(keysOf(s), asItemId(itemId), revision, item, random),
    decryptItem: async (s, itemId, revision, data) =>
      records.decryptItem(keysOf(s), asItemId(itemId), revision, data),
    decryptItems: async (s, items) => batch.decryptItems(keysOf(s), items),
    lookupName: async (s, parentId, name) => records.lookupName(keysOf(s), parent(parentId), name),
    digestBlock: async (block) => ({ digest: await blockDigest(block), block }),
  };
}
