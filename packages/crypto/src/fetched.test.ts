// Downloads the Worker fetches and opens itself ([Note: fetched downloads] in fetched.ts): the
// service behind a MessageChannel, its network a fake that answers from memory and records the
// requests' abort signals.
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES as C } from './chunk.ts';
import { createCryptoClient } from './client.ts';
import type { FileId, SessionId, VaultId } from './ids.ts';
import { inProcessTransport, serve, workerTransport } from './rpc.ts';
import { createCryptoService } from './service.ts';
import { FETCHED_BATCH_BYTES as B, grouped } from './fetched.ts';
import { diff, FAST_KDF, pattern, readAll, readUntilError, streamOf, uuid } from './testkit.ts';

/** The Worker fetches only its own origin: the test page's in a browser, any in Node. */
const here = (globalThis as { location?: Location }).location;
const ORIGIN = here?.origin ?? 'https://app.test';

/** What the fake network answers for a URL: bytes (200, sent in pieces) or a status. */
const answers = new Map<string, Uint8Array | number>();
const signals: AbortSignal[] = [];
const requested: string[] = [];
const fakeFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  requested.push(url);
  if (init?.signal) signals.push(init.signal);
  const answer = answers.get(url);
  if (answer === undefined) return Promise.reject(new TypeError('Failed to fetch'));
  if (typeof answer === 'number') return Promise.resolve(new Response('{}', { status: answer }));
  return Promise.resolve(new Response(streamOf(answer, 70_000)));
};

const channel = new MessageChannel();
serve(channel.port2, createCryptoService({ fetch: fakeFetch }));
const port = workerTransport(channel.port1);
/** The chunk sizes of each readFetched answer, as they reached the page. */
const answered: number[][] = [];
const client = createCryptoClient({
  call: (method, args, transfer) => {
    const value = port.call(method, args, transfer);
    if (method === 'readFetched') {
      (value as Promise<Uint8Array[]>).then(
        (parts) => answered.push(parts.map((p) => p.length)),
        () => undefined, // the caller sees the failure
      );
    }
    return value;
  },
});
afterAll(() => {
  channel.port1.close();
  channel.port2.close();
});

/** A vault's session and one file of `size` bytes, encrypted and served at a fresh URL. */
async function fileAt(size: number, on = client) {
  const vaultId = uuid<VaultId>();
  const { key } = await on.createVault(vaultId, 'pw', FAST_KDF);
  const session: SessionId = await on.unlockVault(vaultId, key, 'pw');
  const fileId = uuid<FileId>();
  const plain = pattern(size);
  const enc = await on.encryptFileStream(session, fileId, streamOf(plain));
  const ciphertext = await readAll(enc.ciphertext);
  const url = `${ORIGIN}/api/files/${fileId}/content`;
  answers.set(url, ciphertext);
  return { session, fileId, plain, ciphertext, url, wrappedKey: enc.wrappedKey };
}

describe('downloads fetched in the Worker', () => {
  it('fetches and opens a file of several batches, byte-identical', async () => {
    const f = await fileAt(9 * C + 5); // 2.25 MiB: one answer
    const plain = await client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url);
    expect(diff(await readAll(plain), f.plain)).toEqual([0, -1]);
  });

  it('answers about 4 MiB of opened chunks per message, each in a buffer of its own', async () => {
    const f = await fileAt(2 * B + 3 * C + 1);
    answered.length = 0;
    const plain = await client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url);
    const sizes: number[] = [];
    const parts: Uint8Array[] = [];
    for await (const part of plain) {
      sizes.push(part.length);
      parts.push(part);
    }
    // Chunks as they were opened: no copy joined them (each its own whole, movable buffer).
    expect(sizes).toEqual([...Array<number>(2 * (B / C) + 3).fill(C), 1]);
    expect(parts.every((p) => p.byteOffset === 0 && p.byteLength === p.buffer.byteLength)).toBe(
      true,
    );
    const all = new Uint8Array(f.plain.length);
    parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
    expect(diff(all, f.plain)).toEqual([0, -1]);
    const perMessage = Array<number>(B / C).fill(C);
    expect(answered).toEqual([perMessage, perMessage, [C, C, C, 1], []]);
  });

  it('groups chunks into lists of at least the size, the last smaller, without copying', async () => {
    const of = (...sizes: number[]) => listOf(sizes);
    async function* listOf(sizes: number[]) {
      for (const n of sizes) yield await Promise.resolve(new Uint8Array(n));
    }
    const lists: Uint8Array[][] = [];
    const input = [3, 2, 4, 1, 1, 2];
    for await (const list of grouped(of(...input), 5)) lists.push(list);
    expect(lists.map((l) => l.map((p) => p.length))).toEqual([
      [3, 2],
      [4, 1],
      [1, 2],
    ]);
    for await (const list of grouped(of(), 5)) lists.push(list);
    expect(lists).toHaveLength(3);
  });

  it('opens an empty file', async () => {
    const f = await fileAt(0);
    const plain = await client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url);
    expect((await readAll(plain)).length).toBe(0);
  });

  it('says NOT_FOUND for a 404 and FETCH_FAILED for other failures, before any stream', async () => {
    const f = await fileAt(10);
    answers.set(f.url, 404);
    await expect(
      client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'File data not found' });
    answers.set(f.url, 503);
    await expect(
      client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url),
    ).rejects.toMatchObject({ code: 'FETCH_FAILED' });
    answers.delete(f.url);
    await expect(
      client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url),
    ).rejects.toMatchObject({ code: 'FETCH_FAILED' });
  });

  it('fails a damaged or cut file with DECRYPT_FAILED, and a locked vault with LOCKED', async () => {
    const f = await fileAt(5 * C);
    const damaged = f.ciphertext.slice();
    damaged[3 * C] = damaged[3 * C]! ^ 1;
    answers.set(f.url, damaged);
    const one = await client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url);
    expect((await readUntilError(one)).error).toMatchObject({ code: 'DECRYPT_FAILED' });

    answers.set(f.url, f.ciphertext.subarray(0, f.ciphertext.length - 100));
    const cut = await client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url);
    expect((await readUntilError(cut)).error).toMatchObject({ code: 'DECRYPT_FAILED' });

    answers.set(f.url, f.ciphertext.subarray(0, 40)); // not even a header
    await expect(
      client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url),
    ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });

    answers.set(f.url, f.ciphertext);
    await client.closeSession(f.session);
    await expect(
      client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url),
    ).rejects.toMatchObject({ code: 'LOCKED' });
  });

  it.runIf(here)('refuses a URL of another origin', async () => {
    const f = await fileAt(10);
    const elsewhere = 'https://elsewhere.test/api/files/x/content';
    answers.set(elsewhere, f.ciphertext);
    await expect(
      client.decryptFetched(f.session, f.fileId, f.wrappedKey, elsewhere),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(requested).not.toContain(elsewhere);
  });

  it('aborts the request and ends the job when the reader cancels or the signal aborts', async () => {
    const f = await fileAt(3 * B);
    const plain = await client.decryptFetched(f.session, f.fileId, f.wrappedKey, f.url);
    const request = signals.at(-1)!;
    const reader = plain.getReader();
    expect((await reader.read()).value?.length).toBe(C);
    expect(request.aborted).toBe(false);
    await reader.cancel();
    expect(request.aborted).toBe(true);

    const abort = new AbortController();
    const second = await client.decryptFetched(
      f.session,
      f.fileId,
      f.wrappedKey,
      f.url,
      abort.signal,
    );
    const secondRequest = signals.at(-1)!;
    abort.abort(new Error('stopped'));
    expect((await readUntilError(second)).error).toMatchObject({ message: 'stopped' });
    await expect.poll(() => secondRequest.aborted).toBe(true);
  });

  // [Note: downloads written in the Worker]. A stand-in file handle cannot cross a message
  // boundary (a browser's real one can): these run the service in-process.
  describe('written to a file by the Worker', () => {
    const local = createCryptoClient(inProcessTransport(createCryptoService({ fetch: fakeFetch })));

    /** A file handle that keeps what is written, and says how its writable ended. */
    function target(failAt = Infinity) {
      const parts: Uint8Array[] = [];
      const state = { closed: false, aborted: false, opened: 0 };
      return {
        parts,
        state,
        handle: {
          createWritable: () => {
            state.opened += 1;
            return Promise.resolve({
              write: async (data: Blob) => {
                if (parts.length >= failAt) throw new Error('disk full');
                parts.push(new Uint8Array(await data.arrayBuffer()));
              },
              close: () => ((state.closed = true), Promise.resolve()),
              abort: () => ((state.aborted = true), Promise.resolve()),
            });
          },
        },
      };
    }
    const joinedOf = (parts: Uint8Array[]) => {
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
      return all;
    };

    it('writes the plaintext cut to its length, saying what is written, then closes', async () => {
      const f = await fileAt(2 * B + 5 * C, local);
      const length = 2 * B + 3; // the rest is the padding
      const t = target();
      const progress: number[] = [];
      await local.decryptFetchedTo(
        f.session,
        f.fileId,
        f.wrappedKey,
        f.url,
        t.handle,
        length,
        (n) => progress.push(n),
      );
      expect(progress).toEqual([B, 2 * B, length]);
      expect(diff(joinedOf(t.parts), f.plain.subarray(0, length))).toEqual([0, -1]);
      expect(t.state).toEqual({ closed: true, aborted: false, opened: 1 });
    });

    it('fails with WRITE_FAILED when a write fails, and drops the file', async () => {
      const f = await fileAt(3 * B, local);
      const t = target(1);
      await expect(
        local.decryptFetchedTo(f.session, f.fileId, f.wrappedKey, f.url, t.handle, f.plain.length),
      ).rejects.toMatchObject({ code: 'WRITE_FAILED', message: 'The file could not be saved.' });
      expect(t.state).toMatchObject({ closed: false, aborted: true });
      expect(signals.at(-1)?.aborted).toBe(true);
    });

    it('stops when the signal aborts: the request is aborted and the file dropped', async () => {
      const f = await fileAt(4 * B, local);
      const t = target();
      const abort = new AbortController();
      const saving = local.decryptFetchedTo(
        f.session,
        f.fileId,
        f.wrappedKey,
        f.url,
        t.handle,
        f.plain.length,
        () => abort.abort(new Error('stopped')),
        abort.signal,
      );
      await expect(saving).rejects.toThrow('stopped');
      await expect.poll(() => t.state.aborted).toBe(true);
      expect(t.state.closed).toBe(false);
      await expect.poll(() => signals.at(-1)?.aborted).toBe(true);
    });

    it('opens no file for a 404 or a damaged file, and refuses a bad length', async () => {
      const f = await fileAt(10, local);
      const t = target();
      answers.set(f.url, 404);
      const save = () =>
        local.decryptFetchedTo(f.session, f.fileId, f.wrappedKey, f.url, t.handle, 10);
      await expect(save()).rejects.toMatchObject({ code: 'NOT_FOUND' });
      answers.set(f.url, f.ciphertext.subarray(0, 40));
      await expect(save()).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
      expect(t.state.opened).toBe(0);
      await expect(
        local.decryptFetchedTo(f.session, f.fileId, f.wrappedKey, f.url, t.handle, -1),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });
});
