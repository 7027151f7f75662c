// The app's one crypto client. The Worker starts on first use (the landing page never loads
// it); key material lives only inside it (architecture.md, Web).
import {
  asVaultId,
  createCryptoClient,
  workerTransport,
  type CryptoClient,
} from '@sealvault/crypto';
import CryptoWorker from '@sealvault/crypto/worker?worker';

let client: CryptoClient | null = null;

export function cryptoClient(): CryptoClient {
  // Buffer reuse for decryption only. It made 1 GiB downloads faster (about 210 -> 300-420 MB/s)
  // but uploads no faster (they are bound by the server, the network and the SHA-256), while it
  // raised the page's peak memory in a 1 GiB upload from +145 to +200 MiB, past the 200 MB
  // budget (fewer allocations, so fewer garbage collections: bench/RESULTS.md).
  client ??= createCryptoClient(workerTransport(new CryptoWorker()), { reuseBuffers: 'decrypt' });
  return client;
}

/**
 * Starts the Worker ahead of need (loading its code and compiling its WebAssembly takes a few
 * hundred ms), e.g. when the unlock dialog opens, so pressing Unlock only pays for the KDF.
 */
export function warmUpCrypto(): void {
  void cryptoClient()
    .lockVault(asVaultId('00000000-0000-4000-8000-000000000000'))
    .catch(() => undefined);
}
