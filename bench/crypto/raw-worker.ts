// Bench-only Worker: raw WebCrypto AES-256-GCM figures, measured where the vf1 service runs.
import { rawFigures } from './workload.ts';

addEventListener('message', (event: MessageEvent<number>) => {
  void rawFigures(event.data).then((figures) => postMessage(figures));
});
