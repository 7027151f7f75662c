// The crypto client: the one async API the UI uses, the same whether the service runs in a
// Worker (workerTransport) or in-process (inProcessTransport). It holds no keys, only handles.
// File streams are cut into vf1 chunks here and sealed/opened by the service, several chunks in
// flight, each buffer transferred (vault-format.md §2, §4).
import { ByteReader, openChunks, sealChunks, toReadable, trim } from './stream.ts';
import { CryptoError } from './errors.ts';
import { HEADER_BYTES } from './header.ts';
import type { RangePlan } from './chunk.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { Bytes } from './primitives.ts';
import type { Transport } from './rpc.ts';
import type { CryptoService, EncryptResult } from './service.ts';

/** An encryption in progress: the ciphertext stream (header first) and its result. */
export interface EncryptedFileStream {
  /** encFK, base64: store it with the file record. */
  wrappedKey: string;
  /** Header then sealed chunks; read it to the end. */
  ciphertext: ReadableStream<Uint8Array>;
  /** Resolves when `ciphertext` has been read to the end; rejects if it failed. */
  done: Promise<EncryptResult & { plaintextSize: number }>;
}

type Passthrough = Omit<
  CryptoService,
  'beginEncrypt' | 'sealChunk' | 'finishEncrypt' | 'beginDecrypt' | 'openChunk' | 'endJob'
>;

export interface CryptoClient extends Passthrough {
  /** Encrypts a plaintext stream into a new file version (fresh FK) for `fileId`. */
  encryptFileStream(
    session: SessionId,
    fileId: FileId,
    plaintext: ReadableStream<Uint8Array>,
    options?: { checksum?: boolean },
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
  /** Chunks in flight at once (default 4). */
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
  transport: Transport,
  options: ClientOptions = {},
): CryptoClient {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const reuseOnOpen = (options.reuseBuffers ?? 'all') !== 'none';
  const reuseOnSeal = (options.reuseBuffers ?? 'all') === 'all';
  const pass =
    <M extends keyof Passthrough>(m: M) =>
    (...args: Parameters<CryptoService[M]>) =>
      transport.call(m, args);

  const opener = (job: JobId) => ({
    open: (index: number, sealed: Bytes, final: boolean) =>
      transport.call('openChunk', [job, index, sealed, final], [sealed.buffer]),
  });

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
    const job = await transport.call('beginDecrypt', [session, fileId, wrappedKey, header]);
    try {
      yield* openChunks(reader, opener(job), concurrency, undefined, reuseOnOpen);
    } finally {
      await reader.cancel();
      await transport.call('endJob', [job]);
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
    const job = await transport.call('beginDecrypt', [session, fileId, wrappedKey, header.slice()]);
    try {
      const chunks = openChunks(new ByteReader(slice), opener(job), concurrency, plan, reuseOnOpen);
      yield* trim(chunks, plan.skip, plan.length);
    } finally {
      await transport.call('endJob', [job]);
    }
  }

  return {
    createVault: pass('createVault'),
    unlockVault: pass('unlockVault'),
    unlockWithRecoveryKey: pass('unlockWithRecoveryKey'),
    lockVault: pass('lockVault'),
    lockAll: pass('lockAll'),
    changePassword: pass('changePassword'),
    resetPassword: pass('resetPassword'),
    addRecoverySlot: pass('addRecoverySlot'),
    encryptMeta: pass('encryptMeta'),
    decryptMeta: pass('decryptMeta'),
    decryptMetas: pass('decryptMetas'),
    encryptItem: pass('encryptItem'),
    decryptItem: pass('decryptItem'),
    decryptItems: pass('decryptItems'),
    lookupName: pass('lookupName'),

    async encryptFileStream(session, fileId, plaintext, opts = {}) {
      const begun = await transport.call('beginEncrypt', [session, fileId, opts.checksum ?? true]);
      const { job, header, wrappedKey } = begun;
      let plaintextSize = 0;
      let settle:
        | {
            resolve: (r: EncryptedFileStream['done'] extends Promise<infer R> ? R : never) => void;
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
          return transport.call('sealChunk', [job, index, plain, final], [plain.buffer]);
        },
      };
      async function* all() {
        try {
          yield header;
          yield* sealChunks(plaintext, sealer, concurrency, reuseOnSeal);
          const result = await transport.call('finishEncrypt', [job]);
          settle?.resolve({ ...result, plaintextSize });
        } catch (err) {
          settle?.reject(err);
          throw err;
        } finally {
          settle?.reject(new CryptoError('INVALID_INPUT', 'The ciphertext stream was cancelled'));
          await transport.call('endJob', [job]);
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
