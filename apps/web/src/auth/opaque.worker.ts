// The OPAQUE client's Worker (opaque.ts): a thin trampoline that runs the library's client calls
// off the page, so the Argon2id key stretching (about half a second) never freezes the screen.
// Each request names the call and its parameters; the answer carries its result or its error text.
import * as opaque from '@serenity-kit/opaque';
import type { OpaqueCall, OpaqueReply } from './opaque.ts';

self.addEventListener('message', (event: MessageEvent<OpaqueCall>) => {
  const { id, op, params } = event.data;
  void opaque.ready
    .then(() => {
      const client = opaque.client as unknown as Record<string, (p: unknown) => unknown>;
      const result = client[op]!(params);
      self.postMessage({ id, result: result ?? null } satisfies OpaqueReply);
    })
    .catch((err: unknown) => {
      self.postMessage({
        id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies OpaqueReply);
    });
});
