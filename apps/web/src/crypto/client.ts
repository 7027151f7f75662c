// The app's one crypto client. The Worker starts on first use (the landing page never loads
// it); key material lives only inside it (architecture.md, Web).
import { createCryptoClient, workerTransport, type CryptoClient } from '@sealvault/crypto';
import CryptoWorker from '@sealvault/crypto/worker?worker';

let client: CryptoClient | null = null;

export function cryptoClient(): CryptoClient {
  client ??= createCryptoClient(workerTransport(new CryptoWorker()));
  return client;
}
