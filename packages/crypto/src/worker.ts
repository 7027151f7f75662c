// The crypto Worker: a thin trampoline with no logic (conventions.md, "Crypto"). It serves the
// crypto service to the page; keys never leave this thread. Start it with
//   new Worker(new URL('@sealvault/crypto/worker', import.meta.url), { type: 'module' })
// and talk to it through createCryptoClient(workerTransport(worker)).
import { serve } from './rpc.ts';

serve(globalThis);
