// The body limit through @hono/node-server over a real socket ([Note: no body, no Request] in
// body-limit.ts): in-process tests hand the app a full Request, so only here do a declared
// Content-Length checked unread, a chunked body counted by bodyLimit, and a body read through the
// adapter's direct path meet Node's own request.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_TOO_LARGE, limitBodies } from './body-limit.ts';
import type { AppEnv } from './context.ts';
import { onError } from './errors.ts';

let server: ServerType;
let url = '';
beforeAll(async () => {
  const app = new Hono<AppEnv>();
  app.use('*', limitBodies(100));
  app.onError(onError);
  app.post('/x', async (c) => c.json(await c.req.json()));
  app.get('/x', (c) => c.text('read'));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      url = `http://127.0.0.1:${info.port}/x`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const json = { 'content-type': 'application/json' };
const tooLarge = { error: { code: 'payload_too_large', message: BODY_TOO_LARGE } };

describe('body limit over HTTP', () => {
  it('reads a body within its declared length', async () => {
    const res = await fetch(url, { method: 'POST', headers: json, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: 1 });
  });

  it('refuses a declared length over the limit', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(200) });
    const res = await fetch(url, { method: 'POST', headers: json, body });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge);
  });

  it('refuses a chunked body that goes past the limit', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ a: 'x'.repeat(200) }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: json,
      body,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge);
  });

  it('lets a GET through', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('read');
  });
});
