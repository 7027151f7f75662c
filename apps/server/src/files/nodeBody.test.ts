import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { bodyOf, drainBodyOnError } from './nodeBody.ts';

/** A stand-in for a request stream: a PassThrough has the same events and pause/resume. */
const requestStream = () => new PassThrough() as unknown as IncomingMessage & PassThrough;

async function readAll(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) return chunks;
    chunks.push(r.value);
  }
}

describe('bodyOf', () => {
  it('hands on the request chunks as they are, without copying, and ends with the request', async () => {
    const incoming = requestStream();
    const body = bodyOf(incoming);
    const sent = [Buffer.from('abc'), Buffer.from('defg')];
    for (const b of sent) incoming.write(b);
    incoming.end();
    const got = await readAll(body);
    expect(Buffer.concat(got).toString()).toBe('abcdefg');
    expect(got[0]?.buffer).toBe(sent[0]?.buffer); // the same memory: no copy per chunk
  });

  it('pauses the request while the reader is behind, and resumes when it reads', async () => {
    const incoming = requestStream();
    const body = bodyOf(incoming);
    incoming.write(Buffer.alloc(10));
    incoming.write(Buffer.alloc(10));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(incoming.isPaused()).toBe(true);
    const reader = body.getReader();
    expect((await reader.read()).value?.length).toBe(10);
    incoming.end();
    expect((await reader.read()).value?.length).toBe(10);
    expect((await reader.read()).done).toBe(true);
  });

  it('fails the body when the connection drops before the end', async () => {
    const incoming = requestStream();
    const body = bodyOf(incoming);
    incoming.write(Buffer.from('partial'));
    incoming.destroy(); // 'close' without 'end', as a dropped connection
    await expect(readAll(body)).rejects.toThrow(/aborted/);
  });
});

describe('drainBodyOnError', () => {
  /**
   * A server answering 507 before reading a byte of a 4 MiB body; a client that sends the first
   * MiB, waits `pauseMs`, then the rest, as a slow link or a busy machine does. Answers the
   * status the client read and when it came (ms after the request started).
   */
  async function slowPut(drain: boolean, pauseMs: number) {
    const app = new Hono();
    const refuse = () => new Response('{"error":{"code":"storage_full"}}', { status: 507 });
    if (drain) app.put('/', drainBodyOnError, refuse);
    else app.put('/', refuse);
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    const body = Buffer.alloc(4 * 1024 * 1024, 7);
    const t0 = Date.now();
    try {
      return await new Promise<{ status: number; afterMs: number }>((resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: '/',
          agent: false,
          headers: { 'content-length': String(body.length) },
        });
        req.on('response', (res) => {
          const afterMs = Date.now() - t0;
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, afterMs }));
        });
        req.on('error', reject);
        req.write(body.subarray(0, 1024 * 1024));
        setTimeout(() => req.end(body.subarray(1024 * 1024)), pauseMs);
      });
    } finally {
      server.close();
    }
  }

  it('holds an early error answer until the body has arrived, so a client still sending reads it', async () => {
    const { status, afterMs } = await slowPut(true, 800);
    expect(status).toBe(507);
    expect(afterMs).toBeGreaterThanOrEqual(780);
  });

  it('without it the answer goes at once, and the socket is closed 500 ms later', async () => {
    const { status, afterMs } = await slowPut(false, 800).catch(() => ({ status: 0, afterMs: 0 }));
    expect(afterMs).toBeLessThan(500);
    expect([0, 507]).toContain(status);
  });
});
