// Bench-only Worker: raw WebCrypto AES-256-GCM figures, measured where the vf1 service runs.
// A number asks for rawFigures over that many bytes; `{ key: true }` then `{ id, input }`
// messages are the app layout's baseline (rawViaMessages in page.ts): each input is encrypted
// and sent back with its output, both transferred.
import { rawFigures } from './workload.ts';

let key: CryptoKey | undefined;
const params = { name: 'AES-GCM', iv: new Uint8Array(12), additionalData: new Uint8Array(72) };

type Message = number | { key: true } | { id: number; input: ArrayBuffer };

addEventListener('message', (event: MessageEvent<Message>) => {
  const m = event.data;
  if (typeof m === 'number') {
    void rawFigures(m).then((figures) => postMessage(figures));
  } else if ('key' in m) {
    void crypto.subtle
      .generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt'])
      .then((k) => {
        key = k;
        postMessage({ ready: true });
      });
  } else {
    void crypto.subtle.encrypt(params, key!, m.input).then((out) => {
      postMessage({ id: m.id, out, spare: m.input }, [out, m.input]);
    });
  }
});
