// Bench-only Worker: the vf1 stream API with the service in this same Worker (inProcessTransport):
// source, encryption, storage and sink all in one Worker, no page thread and no messages per
// chunk. This is the package's own streaming cost; page.ts measures the app's layout (client on
// the page, service in the crypto Worker) beside it. Raw WebCrypto is measured here too.
import { createCryptoClient, inProcessTransport } from '../../packages/crypto/src/index.ts';
import { storeOf } from './stores.ts';
import { pairedFigures } from './paired.ts';
import { benchSession, best, rawFigures, streamFigures } from './workload.ts';

interface Run {
  mib: number;
  rounds: number;
  store: string;
  /** Only the paired stream-vs-raw measurement (paired.ts pairedFigures), this many rounds. */
  paired?: number;
}

addEventListener('message', (event: MessageEvent<Run>) => {
  const { mib, rounds, store: kind, paired } = event.data;
  void (async () => {
    const client = createCryptoClient(inProcessTransport());
    const session = await benchSession(client);
    const total = mib * 1024 * 1024;
    if (paired) {
      // No fileEncrypt here: a 256 MiB Blob made inside this Worker failed to read back ("The file
      // could not be read"), where the page's Blob read by a crypto Worker did not.
      postMessage({
        paired: await pairedFigures(client, session, total, paired, undefined, false),
      });
      return;
    }
    const store = await storeOf(kind, 'vf1-bench-in-worker.bin');
    const phase = (name: string) => postMessage({ phase: `in-worker ${name}` });
    const results = [];
    for (let i = 0; i < rounds; i++) {
      results.push({
        ...(await streamFigures(client, session, total, store, phase)),
        ...(await rawFigures(total)),
      });
    }
    postMessage({ figures: best(results) });
  })().catch((err: unknown) => postMessage({ error: String(err) }));
});
