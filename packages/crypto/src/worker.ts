// The crypto Worker: a thin trampoline with no logic (docs/conventions.md, "Crypto"). It serves the
// crypto service to the page; keys never leave this thread. With Vite:
//   import CryptoWorker from '@sealvault/crypto/worker?worker';
//   const vf1 = createCryptoClient(workerTransport(new CryptoWorker()));
import { serve } from './rpc.ts';

serve(globalThis);
