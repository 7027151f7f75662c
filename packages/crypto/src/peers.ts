// Key hand-over between the services of a pool of crypto Workers (client.ts, [Note: crypto
// pool]). The client makes a MessageChannel and transfers one port to each of two Workers; the
// sender posts CryptoKeys (structured clones, still non-extractable) straight to the receiver, so
// no key ever passes through the page. The sender always posts exactly one message, a payload or
// a refusal, so a receiver never waits for keys that will not come.
import { CryptoError } from './errors.ts';

type Message = { ok: true; payload: Record<string, unknown> } | { ok: false };

/** Posts what `make` returns through `port` and closes it; if `make` throws, posts a refusal. */
export async function sendTo(
  port: MessagePort,
  make: () => Record<string, unknown>,
): Promise<void> {
  let message: Message = { ok: false };
  try {
    message = { ok: true, payload: make() };
  } finally {
    port.postMessage(message);
    port.close();
  }
  return Promise.resolve();
}

/** The one message `sendTo` posts through the other end of `port`; a refusal is INVALID_INPUT. */
export function receiveFrom(port: MessagePort): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    port.addEventListener(
      'message',
      (event: MessageEvent<unknown>) => {
        port.close();
        const m = event.data as Partial<Message> | null;
        if (m?.ok === true && typeof m.payload === 'object' && m.payload !== null) {
          resolve(m.payload);
        } else reject(new CryptoError('INVALID_INPUT'));
      },
      { once: true },
    );
    port.start();
  });
}
