// Range-decrypted media for the previewer (public/media-sw.js): a <video> or <audio> element
// plays /__media/<token>; the Service Worker hands each Range request to this page, which
// reads only the ciphertext chunks covering it from the vault's storage provider (planRange), decrypts them in the crypto Worker
// and returns the plaintext piece by piece as the player pulls. Large videos play and seek
// without downloading the whole file. The same path saves large files to disk where the browser
// has no File System Access API: the Service Worker answers /__media/<token> as an attachment,
// of one file (openMediaUrl with `download`) or of any stream of known length (openStreamDownload:
// the ZIP of several files, zip.ts).
import { asFileId, HEADER_BYTES, planRange } from '@sealvault/crypto';
import { userMessage } from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { sessionOf } from '../../vaults/sessionContext.tsx';
import { storageOf } from '../../storage/providers.ts';
import type { FileEntry } from '../model.ts';
import { msg } from '../../i18n/i18n.ts';

const SW_URL = '/media-sw.js';

let ready: Promise<ServiceWorker | null> | null = null;

/** The active media Service Worker controlling this page, or null where there is none. */
function mediaWorker(): Promise<ServiceWorker | null> {
  ready ??= (async () => {
    if (!('serviceWorker' in navigator)) return null;
    try {
      await navigator.serviceWorker.register(SW_URL, { scope: '/' });
      const reg = await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise<void>((resolve) => {
          navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), {
            once: true,
          });
          setTimeout(resolve, 3000);
        });
      }
      return navigator.serviceWorker.controller ? reg.active : null;
    } catch {
      return null;
    }
  })();
  return ready;
}

interface RangeRequest {
  type: 'media-range';
  token: string;
  start: number;
  end: number;
}

/**
 * Answers one request the Service Worker hands over `port`: opens the plaintext on the first
 * pull, then sends one piece per pull (`{ chunk }`), `{ done }` at the end or `{ error }`; a
 * `{ cancel }` from the Service Worker stops it. `onEnd` hears how it ended.
 */
function pump(
  port: MessagePort,
  openStream: (signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>,
  onEnd: (error?: string) => void,
) {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const ctrl = new AbortController();
  port.onmessage = (ev: MessageEvent<{ pull?: boolean; cancel?: boolean }>) => {
    if (ev.data.cancel) {
      onEnd('Cancelled');
      ctrl.abort();
      void reader?.cancel().catch(() => undefined);
      port.close();
      return;
    }
    void pull();
  };
  let opening: Promise<ReadableStreamDefaultReader<Uint8Array>> | null = null;
  async function pull() {
    try {
      opening ??= openStream(ctrl.signal).then((stream) => stream.getReader());
      reader = await opening;
      const { done, value } = await reader.read();
      if (done) {
        port.postMessage({ done: true });
        onEnd();
      } else {
        const copy = value.slice();
        port.postMessage({ chunk: copy.buffer }, [copy.buffer]);
      }
    } catch (err) {
      if (!ctrl.signal.aborted) {
        const message = userMessage(err, msg('Failed to decrypt file'));
        port.postMessage({ error: message });
        onEnd(message);
      }
    }
  }
  port.start();
}

/** A media range: only the ciphertext chunks covering it are read and decrypted (planRange). */
function answer(
  vaultId: string,
  file: FileEntry,
  header: () => Promise<Uint8Array>,
  req: RangeRequest,
  port: MessagePort,
  onEnd: (error?: string) => void,
) {
  pump(
    port,
    async (signal) => {
      const plan = planRange(file.ciphertextSize, req.start, req.end);
      const slice = await storageOf(vaultId).get(
        vaultId,
        file.ref,
        { start: plan.fetchStart, end: plan.fetchEnd },
        signal,
      );
      return cryptoClient().decryptRange(
        sessionOf(vaultId),
        asFileId(file.id),
        file.wrappedKey,
        await header(),
        plan,
        slice,
      );
    },
    onEnd,
  );
}

export interface MediaUrl {
  url: string;
  /** Settles when a response has been served to its end (or failed, with the reason). */
  finished: Promise<void>;
  dispose: () => void;
}

/**
 * A same-origin URL a media element can play with Range requests, or null when Service Workers
 * are unavailable (the caller then decrypts into a Blob). With `download`, the URL answers once,
 * as an attachment named after the file. Call `dispose` when the player closes.
 */
export async function openMediaUrl(
  vaultId: string,
  file: FileEntry,
  opts: { download?: boolean } = {},
): Promise<MediaUrl | null> {
  if (file.size === 0) return null;
  const sw = await mediaWorker();
  if (!sw) return null;
  let headerBytes: Promise<Uint8Array> | null = null;
  const header = () =>
    (headerBytes ??= storageOf(vaultId)
      .get(vaultId, file.ref, { start: 0, end: HEADER_BYTES })
      .then(async (s) => new Uint8Array(await new Response(s).arrayBuffer())));
  return serveToken(
    sw,
    { size: file.size, mime: file.mime, ...(opts.download ? { download: file.name } : {}) },
    (req, port, settle) => answer(vaultId, file, header, req, port, settle),
  );
}

/**
 * A one-time same-origin URL that downloads `size` bytes as an attachment named `name`, or null
 * when Service Workers are unavailable. The Service Worker asks once for the whole of it
 * ([0, size), sent as its Content-Length); the page answers from `open()`, called on the first
 * pull, one piece per pull as the browser's download reads. Call `dispose` once it is over.
 */
export async function openStreamDownload(
  name: string,
  size: number,
  open: () => Promise<ReadableStream<Uint8Array>>,
): Promise<MediaUrl | null> {
  const sw = await mediaWorker();
  if (!sw) return null;
  let opened = false;
  return serveToken(
    sw,
    { size, mime: 'application/octet-stream', download: name },
    (req, port, settle) =>
      pump(
        port,
        () => {
          if (opened || req.start !== 0 || req.end !== size)
            return Promise.reject(new Error('This download can be read only once, whole.'));
          opened = true;
          return open();
        },
        settle,
      ),
  );
}

/** Registers a token with the Service Worker and hands each of its requests to `onRequest`. */
async function serveToken(
  sw: ServiceWorker,
  entry: { size: number; mime: string; download?: string },
  onRequest: (req: RangeRequest, port: MessagePort, settle: (error?: string) => void) => void,
): Promise<MediaUrl> {
  const token = globalThis.crypto.randomUUID();
  let settle: (error?: string) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(new Error(error)) : resolve());
  });
  finished.catch(() => undefined); // a player that never plays to the end is no failure
  const onMessage = (ev: MessageEvent<RangeRequest>) => {
    if (ev.data?.type !== 'media-range' || ev.data.token !== token || !ev.ports[0]) return;
    onRequest(ev.data, ev.ports[0], settle);
  };
  navigator.serviceWorker.addEventListener('message', onMessage);
  navigator.serviceWorker.startMessages();
  const ack = new MessageChannel();
  await new Promise<void>((resolve) => {
    ack.port1.onmessage = () => resolve();
    sw.postMessage({ type: 'media-register', token, ...entry }, [ack.port2]);
  });
  return {
    url: `/__media/${token}`,
    finished,
    dispose: () => {
      navigator.serviceWorker.removeEventListener('message', onMessage);
      sw.postMessage({ type: 'media-unregister', token });
    },
  };
}
