// The crypto client: the one async API the UI uses, the same whether the service runs in a
// Worker (workerTransport), in a pool of Workers, or in-process (inProcessTransport). It holds no
// keys, only handles. File streams are cut into vf1 chunks here and sealed/opened by the
// services, several chunks in flight, each buffer transferred (vault-format.md §2, §4).
//
// [Note: crypto pool] Given several transports (one per crypto Worker), the first is the primary:
// it runs the KDF and the small records. A session it opens is handed to every other Worker
// through a MessageChannel between the two (peers.ts), under the same SessionId; locking wipes
// it in all of them. A file's chunks are dealt round robin (chunk i to Worker i mod n) and come
// back in order; an encryption's lanes are handed out by the Worker that began it (jobs.ts,
// [Note: encryption lanes]). Callers never know how many Workers there are.
//
// The parts: clientPool.ts (the Workers, calls in all of them, a session handed to the others),
// clientStreams.ts (files sealed and opened, whole or by range), clientWorkerFiles.ts (files the
// primary Worker reads or fetches itself); this module puts them together
// with the calls that go to the primary as they are.
import { createPool } from './clientPool.ts';
import { fileStreams, type FileStreams } from './clientStreams.ts';
import type { CryptoService } from './service.ts';
import type { Transport } from './rpc.ts';

export type { EncryptedFileStream } from './clientStreams.ts';

type Passthrough = Omit<
  CryptoService,
  | 'beginEncrypt'
  | 'sendLane'
  | 'receiveLane'
  | 'sealChunk'
  | 'sendSession'
  | 'receiveSession'
  | 'beginDecrypt'
  | 'openChunk'
  | 'endJob'
  | 'beginFetched'
  | 'readFetched'
  | 'endFetched'
  | 'beginFetchedTo'
  | 'readWritten'
  | 'beginSealFile'
  | 'readSealed'
  | 'beginSealPieces'
  | 'readSealedPieces'
  | 'endSealed'
>;

/**
 * The service's calls, plus the file streams: `encryptFileStream` (a new file version, fresh FK),
 * `encryptFile` (the same from a File the Worker reads itself; `encryptFilePieces` as Blobs),
 * `decryptFileStream` (a whole ciphertext, header included; DECRYPT_FAILED on any damage),
 * `decryptFetched` (the same, fetched from a URL by the Worker itself; `decryptFetchedTo` also
 * written to a file by it) and `decryptRange` (the
 * slice a RangePlan named, plus the 72 header bytes, to exactly the range).
 */
export interface CryptoClient extends Passthrough, FileStreams {}

export interface ClientOptions {
  /** Chunks in flight at once (default 4 per Worker of the pool, at most 12). */
  concurrency?: number;
  /**
   * Read each next chunk into the buffer of one already done: 'all' (the default), 'decrypt'
   * (decryption only) or 'none'; see stream.ts, [Note: buffer reuse]. Faster streams, but fewer
   * allocations also mean fewer garbage collections in Chromium, and the garbage left (WebCrypto's
   * outputs) then piles up longer: a caller that keeps memory low rather than crypto fast may
   * turn it off.
   */
  reuseBuffers?: 'all' | 'decrypt' | 'none';
}

export function createCryptoClient(
  transports: Transport | readonly Transport[],
  options: ClientOptions = {},
): CryptoClient {
  const pool = createPool(transports);
  const { all, primary, everywhere, share } = pool;
  const reuse = options.reuseBuffers ?? 'all';
  const streams = fileStreams(pool, {
    concurrency: Math.max(1, options.concurrency ?? Math.min(12, 4 * all.length)),
    reuseOnOpen: reuse !== 'none',
    reuseOnSeal: reuse === 'all',
  });
  let nextDigest = 0;
  const pass =
    <M extends keyof Passthrough>(m: M) =>
    (...args: Parameters<CryptoService[M]>) =>
      primary.call(m, args);

  return {
    async createVault(vaultId, password, kdf) {
      const created = await primary.call('createVault', [vaultId, password, kdf]);
      return { key: created.key, session: await share(vaultId, created.session) };
    },
    unlockVault: async (vaultId, key, password, options) =>
      share(vaultId, await primary.call('unlockVault', [vaultId, key, password, options])),
    unlockWithRecoveryKey: async (vaultId, key, recoveryKey, options) =>
      share(
        vaultId,
        await primary.call('unlockWithRecoveryKey', [vaultId, key, recoveryKey, options]),
      ),
    // The PRF output is moved to the Worker (transferred), not copied: the page's copy is emptied.
    unlockWithPasskey: async (vaultId, key, credentialId, prf) =>
      share(
        vaultId,
        await primary.call('unlockWithPasskey', [vaultId, key, credentialId, prf], [prf.buffer]),
      ),
    addPasskeySlot: (vaultId, key, password, passkey, options) =>
      primary.call(
        'addPasskeySlot',
        [vaultId, key, password, passkey, options],
        [passkey.prf.buffer],
      ),
    lockVault: (vaultId) => everywhere('lockVault', () => [vaultId]),
    closeSession: (session) => everywhere('closeSession', () => [session]),
    async rotateVault(session, password, options) {
      const rotated = await primary.call('rotateVault', [session, password, options]);
      return { ...rotated, session: await share(null, rotated.session) };
    },
    rekeyFiles: pass('rekeyFiles'),
    rekeyItems: pass('rekeyItems'),
    signManifest: pass('signManifest'),
    verifyManifest: pass('verifyManifest'),
    lockAll: () => everywhere('lockAll', () => []),
    changePassword: pass('changePassword'),
    resetPassword: pass('resetPassword'),
    addRecoverySlot: pass('addRecoverySlot'),
    encryptMeta: pass('encryptMeta'),
    decryptMeta: pass('decryptMeta'),
    decryptMetas: pass('decryptMetas'),
    // A link's inner session encrypts and decrypts files, whose chunks go to every Worker.
    async createShare(options) {
      const made = await primary.call('createShare', [options]);
      return { ...made, inner: await share(null, made.inner) };
    },
    openShare: pass('openShare'),
    openShareContent: async (id, secret, password) =>
      share(null, await primary.call('openShareContent', [id, secret, password])),
    sealCache: pass('sealCache'),
    openCache: pass('openCache'),
    encryptItem: pass('encryptItem'),
    decryptItem: pass('decryptItem'),
    decryptItems: pass('decryptItems'),
    lookupName: pass('lookupName'),
    digestBlock: (block) => {
      const t = all[nextDigest++ % all.length]!;
      return t.call('digestBlock', [block], [block.buffer]);
    },

    ...streams,
  };
}
