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
import { ByteReader, openChunks, sealChunks, toReadable, trim } from './stream.ts';
import { CryptoError } from './errors.ts';
import { HEADER_BYTES } from './header.ts';
import type { RangePlan } from './chunk.ts';
import type { FileId, JobId, SessionId, VaultId } from './ids.ts';
import type { Bytes } from './primitives.ts';
import type { Transport } from './rpc.ts';
import type { CryptoService } from './service.ts';

/** An encryption in progress: the ciphertext stream (header first) and its result. */
export interface EncryptedFileStream {
  /** encFK, base64: store it with the file record. */
  wrappedKey: string;
  /** Header then sealed chunks; read it to the end. */
  ciphertext: ReadableStream<Uint8Array>;
  /** Resolves when `ciphertext` has been read to the end; rejects if it failed. */
  done: Promise<{ ciphertextSize: number; plaintextSize: number }>;
}

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
>;

export interface CryptoClient extends Passthrough {
  /** Encrypts a plaintext stream into a new file version (fresh FK) for `fileId`. */
  encryptFileStream(
    session: SessionId,
    fileId: FileId,
    plaintext: ReadableStream<Uint8Array>,
  ): Promise<EncryptedFileStream>;
  /** Decrypts a whole ciphertext (header included); errors with DECRYPT_FAILED on any damage. */
  decryptFileStream(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    ciphertext: ReadableStream<Uint8Array>,
  ): ReadableStream<Uint8Array>;
  /** Decrypts the slice a RangePlan named (plus the file's 72 header bytes) to exactly the range. */
  decryptRange(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    header: Uint8Array,
    plan: RangePlan,
    slice: ReadableStream<Uint8Array>,
  ): ReadableStream<Uint8Array>;
}

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
  const pool: readonly Transport[] = Array.isArray(transports) ? transports : [transports];
  if (!pool[0]) throw new CryptoError('INVALID_INPUT', 'A crypto client needs a transport');
  const primary: Transport = pool[0];
  const others = pool.slice(1);
  let nextDigest = 0;
  const concurrency = Math.max(1, options.concurrency ?? Math.min(12, 4 * pool.length));
  const reuseOnOpen = (options.reuseBuffers ?? 'all') !== 'none';
  const reuseOnSeal = (options.reuseBuffers ?? 'all') === 'all';
  const pass =
    <M extends keyof Passthrough>(m: M) =>
    (...args: Parameters<CryptoService[M]>) =>
      primary.call(m, args);
  const everywhere = <M extends 'lockVault' | 'lockAll' | 'closeSession'>(
    m: M,
    args: (worker: number) => Parameters<CryptoService[M]>,
  ) => Promise.all(pool.map((t, i) => t.call(m, args(i)))).then(() => undefined);

  /** Sends something from the primary to Worker `i + 1` over a fresh channel between the two. */
  const handOver = async <R>(
    i: number,
    send: (port: MessagePort) => Promise<void>,
    receive: (t: Transport, port: MessagePort) => Promise<R>,
  ): Promise<R> => {
    const { port1, port2 } = new MessageChannel();
    const [, received] = await Promise.all([send(port1), receive(others[i]!, port2)]);
    return received;
  };

  /**
   * Opens `session` in every other Worker too; on failure, locks `vaultId` everywhere, or with
   * no vault id (a rotation, whose old session stays open) closes just this session everywhere.
   */
  async function share(vaultId: VaultId | null, session: SessionId): Promise<SessionId> {
    try {
      await Promise.all(
        others.map((_, i) =>
          handOver(
            i,
            (port) => primary.call('sendSession', [session, port], [port]),
            (t, port) => t.call('receiveSession', [port], [port]),
          ),
        ),
      );
      return session;
    } catch (err) {
      const undo =
        vaultId === null
          ? everywhere('closeSession', () => [session])
          : everywhere('lockVault', () => [vaultId]);
      await undo.catch(() => undefined);
      throw err;
    }
  }

  const opener = (jobs: readonly JobId[]) => ({
    open: (index: number, sealed: Bytes, final: boolean) => {
      const w = index % pool.length;
      return pool[w]!.call('openChunk', [jobs[w]!, index, sealed, final], [sealed.buffer]);
    },
  });

  /** A decryption job in every Worker (each opens encFK and checks the header itself). */
  async function beginDecrypt(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    header: Uint8Array,
  ): Promise<JobId[]> {
    const begun = await Promise.allSettled(
      pool.map((t) => t.call('beginDecrypt', [session, fileId, wrappedKey, header.slice()])),
    );
    const jobs = begun.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = begun.find((r) => r.status === 'rejected');
    if (failed) {
      await endJobs(jobs);
      throw failed.reason;
    }
    return jobs;
  }
  const endJobs = (jobs: readonly JobId[]) =>
    Promise.all(jobs.map((job, i) => pool[i]!.call('endJob', [job]))).then(() => undefined);

  async function* decryptAll(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    source: ReadableStream<Uint8Array>,
  ) {
    const reader = new ByteReader(source);
    const header = await reader.read(HEADER_BYTES);
    if (header.length !== HEADER_BYTES) {
      await reader.cancel();
      throw new CryptoError('DECRYPT_FAILED');
    }
    let jobs: JobId[] = [];
    try {
      jobs = await beginDecrypt(session, fileId, wrappedKey, header);
      yield* openChunks(reader, opener(jobs), concurrency, undefined, reuseOnOpen);
    } finally {
      await reader.cancel();
      await endJobs(jobs);
    }
  }

  async function* decryptSlice(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    header: Uint8Array,
    plan: RangePlan,
    slice: ReadableStream<Uint8Array>,
  ) {
    const jobs = await beginDecrypt(session, fileId, wrappedKey, header);
    try {
      const chunks = openChunks(
        new ByteReader(slice),
        opener(jobs),
        concurrency,
        plan,
        reuseOnOpen,
      );
      yield* trim(chunks, plan.skip, plan.length);
    } finally {
      await endJobs(jobs);
    }
  }

  /** The primary begins an encryption; each other Worker gets its lane from it. */
  async function beginEncrypt(session: SessionId, fileId: FileId) {
    const begun = await primary.call('beginEncrypt', [session, fileId, pool.length]);
    const lanes = await Promise.allSettled(
      others.map((_, i) =>
        handOver(
          i,
          (port) => primary.call('sendLane', [begun.job, i + 1, port], [port]),
          (t, port) => t.call('receiveLane', [port], [port]),
        ),
      ),
    );
    const jobs = [begun.job, ...lanes.map((r) => (r.status === 'fulfilled' ? r.value : null))];
    const failed = lanes.find((r) => r.status === 'rejected');
    if (failed) {
      const end = (job: JobId | null, w: number) =>
        job ? pool[w]!.call('endJob', [job]) : Promise.resolve();
      await Promise.all(jobs.map(end));
      throw failed.reason;
    }
    return { ...begun, jobs: jobs as JobId[] };
  }

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
      const t = pool[nextDigest++ % pool.length]!;
      return t.call('digestBlock', [block], [block.buffer]);
    },

    async encryptFileStream(session, fileId, plaintext) {
      const { jobs, header, wrappedKey } = await beginEncrypt(session, fileId);
      let plaintextSize = 0;
      let ciphertextSize = header.length;
      let settle:
        | {
            resolve: (r: Awaited<EncryptedFileStream['done']>) => void;
            reject: (e: unknown) => void;
          }
        | undefined;
      const done = new Promise<Awaited<EncryptedFileStream['done']>>((resolve, reject) => {
        settle = { resolve, reject };
      });
      done.catch(() => undefined);
      const sealer = {
        seal: (index: number, plain: Bytes, final: boolean) => {
          plaintextSize += plain.length;
          const w = index % pool.length;
          return pool[w]!.call('sealChunk', [jobs[w]!, index, plain, final], [plain.buffer]);
        },
      };
      async function* all() {
        try {
          yield header;
          for await (const sealed of sealChunks(plaintext, sealer, concurrency, reuseOnSeal)) {
            ciphertextSize += sealed.length;
            yield sealed;
          }
          settle?.resolve({ ciphertextSize, plaintextSize });
        } catch (err) {
          settle?.reject(err);
          throw err;
        } finally {
          settle?.reject(new CryptoError('INVALID_INPUT', 'The ciphertext stream was cancelled'));
          await endJobs(jobs);
        }
      }
      return { wrappedKey, ciphertext: toReadable(all()), done };
    },
    decryptFileStream: (session, fileId, wrappedKey, ciphertext) =>
      toReadable(decryptAll(session, fileId, wrappedKey, ciphertext)),
    decryptRange: (session, fileId, wrappedKey, header, plan, slice) =>
      toReadable(decryptSlice(session, fileId, wrappedKey, header, plan, slice)),
  };
}
