// SealVault media Service Worker: answers a <video>/<audio> element's Range requests for
// /__media/<token> with plaintext the page decrypts on demand. The keys never come here: each
// request is handed to the page (the client that registered the token) over a MessageChannel,
// and the page fetches only the ciphertext chunks covering the range, decrypts them in the crypto
// Worker and sends the bytes back one piece per pull (back-pressure: nothing is decrypted ahead
// of what the player reads). Tokens live only as long as the previewer that made them. A token
// registered with `download` (a file name) answers once, whole, as an attachment: large files
// are saved to disk this way where the browser has no File System Access API.
const streams = new Map(); // token -> { clientId, size, mime, download }

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  const d = event.data || {};
  if (d.type === 'media-register' && typeof d.token === 'string') {
    streams.set(d.token, {
      clientId: event.source && event.source.id,
      size: d.size,
      mime: d.mime,
      download: typeof d.download === 'string' ? d.download : null,
    });
    if (event.ports[0]) event.ports[0].postMessage({ ok: true });
  } else if (d.type === 'media-unregister') {
    streams.delete(d.token);
  }
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith('/__media/')) return;
  const token = url.pathname.slice('/__media/'.length);
  const entry = streams.get(token);
  if (!entry) {
    event.respondWith(new Response('Not found', { status: 404 }));
    return;
  }
  if (entry.download) streams.delete(token); // a download URL answers once
  event.respondWith(serve(event.request, token, entry));
});

function parseRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header || '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') return { start: Math.max(0, size - Number(m[2])), end: size - 1 };
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return { start, end };
}

async function serve(request, token, entry) {
  const size = entry.size;
  const range = entry.download ? null : parseRange(request.headers.get('range'), size);
  const start = range ? range.start : 0;
  const end = range ? range.end : size - 1; // inclusive
  if (range && (start >= size || start > end)) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  }
  const client = entry.clientId ? await self.clients.get(entry.clientId) : null;
  if (!client) return new Response('Gone', { status: 410 });
  const channel = new MessageChannel();
  const port = channel.port1;
  let waiting = null;
  port.onmessage = (ev) => {
    const w = waiting;
    waiting = null;
    if (w) w(ev.data);
  };
  const next = () =>
    new Promise((resolve) => {
      waiting = resolve;
      port.postMessage({ pull: true });
    });
  const body = new ReadableStream({
    async pull(controller) {
      const d = await next();
      if (d.chunk) controller.enqueue(new Uint8Array(d.chunk));
      else if (d.done) {
        controller.close();
        port.close();
      } else {
        controller.error(new Error(d.error || 'Failed to decrypt file'));
        port.close();
      }
    },
    cancel() {
      port.postMessage({ cancel: true });
      port.close();
    },
  });
  client.postMessage({ type: 'media-range', token, start, end: end + 1 }, [channel.port2]);
  const headers = {
    'Content-Type': entry.mime,
    'Content-Length': String(end - start + 1),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'no-store',
  };
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  if (entry.download) {
    headers['Content-Type'] = 'application/octet-stream';
    headers['Content-Disposition'] =
      `attachment; filename*=UTF-8''${encodeURIComponent(entry.download)}`;
  }
  return new Response(body, { status: range ? 206 : 200, headers });
}
