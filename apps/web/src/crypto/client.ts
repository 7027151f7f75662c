// The app's one crypto client, over a pool of crypto Workers ([Note: crypto pool] in
// packages/crypto/src/client.ts). The Workers start on first use (the landing page never loads
// them); key material lives only inside them (architecture.md, Web). Screens never know how many
// there are.
import {
  asVaultId,
  createCryptoClient,
  workerTransport,
  type CryptoClient,
} from '@sealvault/crypto';
import CryptoWorker from '@sealvault/crypto/worker?worker';

/**
 * Crypto Workers for a machine with `cores` logical cores: one core is left to the page (which
 * reads files and drives the network), between 1 and 4 Workers (ADR 0005).
 */
export const poolSize = (cores: number | undefined): number =>
  Math.min(Math.max((cores ?? 1) - 1, 1), 4);

let client: CryptoClient | null = null;

export function cryptoClient(): CryptoClient {
  // Buffer reuse for decryption only. It made 1 GiB downloads faster (about 210 -> 300-420 MB/s)
  // but uploads no faster, while it raised the page's peak memory in a 1 GiB upload from +145 to
  // +200 MiB (fewer allocations, so fewer garbage collections: bench/RESULTS.md).
  client ??= createCryptoClient(
    Array.from({ length: poolSize(navigator.hardwareConcurrency) }, () =>
      workerTransport(new CryptoWorker()),
    ),
    { reuseBuffers: 'decrypt' },
  );
  return client;
}

/**
 * Starts the Workers ahead of need (loading their code and compiling the WebAssembly takes a few
 * hundred ms), e.g. when the unlock dialog opens, so pressing Unlock only pays for the KDF.
 */
export function warmUpCrypto(): void {
  void cryptoClient()
    .lockVault(asVaultId('00000000-0000-4000-8000-000000000000'))
    .catch(() => undefined);
}
