import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { bodyOf } from './nodeBody.ts';

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
