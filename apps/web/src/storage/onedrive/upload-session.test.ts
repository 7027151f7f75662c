import { describe, expect, it } from 'vitest';
import { CloudError, ConnectionLost, type CallOptions } from '../cloud/http.ts';
import { setFolder } from '../cloud/folders.ts';
import { contentHashMismatch } from '../hashing.ts';
import { piecesOf } from '../server/pieces.ts';
import type { OneDriveApi } from './api.ts';
import { quickXorHash, QuickXorHash } from './quickxor.ts';
import {
  contentRange,
  FRAGMENT_BYTES,
  FRAGMENT_UNIT,
  nextOffset,
  putBlob,
  sendFragments,
} from './upload-session.ts';

describe('upload session ranges', () => {
  it('fragments are whole 320 KiB units', () => {
    expect(FRAGMENT_UNIT).toBe(327_680);
    expect(FRAGMENT_BYTES % FRAGMENT_UNIT).toBe(0);
    expect(FRAGMENT_BYTES).toBeLessThan(60 * 1024 * 1024);
  });

  it('reads the first byte OneDrive expects from nextExpectedRanges', () => {
    expect(nextOffset(['0-'])).toBe(0);
    expect(nextOffset(['327680-'])).toBe(327_680);
    expect(nextOffset(['26-51', '100-'])).toBe(26);
    expect(nextOffset([])).toBeNull();
    expect(nextOffset(undefined)).toBeNull();
    expect(nextOffset(['junk'])).toBeNull();
  });

  it('writes Content-Range with an inclusive last byte', () => {
    expect(contentRange(0, 327_680, 1_000_000)).toBe('bytes 0-327679/1000000');
    expect(contentRange(983_040, 1_000_000, 1_000_000)).toBe('bytes 983040-999999/1000000');
  });
});

/**
 * A fake upload URL holding what it received; `script` may answer a call instead (a fault):
 * return a Response, throw, or undefined to let the fake answer as OneDrive would.
 */
function fakeSession(
  total: number,
  script: (call: number, init: RequestInit) => Response | undefined,
) {
  const received: Uint8Array[] = [];
  let held = 0;
  let calls = 0;
  const log: string[] = [];
  const api = {
    content: (_url: string, init: RequestInit = {}, _opts?: CallOptions) => {
      calls += 1;
      const method = init.method ?? 'GET';
      const range = new Headers(init.headers).get('content-range') ?? '';
      log.push(`${method} ${range}`.trim());
      let scripted: Response | undefined;
      try {
        scripted = script(calls, init);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      if (scripted) return Promise.resolve(scripted);
      if (method === 'GET')
        return Promise.resolve(Response.json({ nextExpectedRanges: [`${held}-`] }));
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range)!;
      const [from, to] = [Number(m[1]), Number(m[2])];
      if (from !== held) return Promise.reject(new CloudError(416, 'invalidRange', '', null));
      received.push(init.body as Uint8Array);
      held = to + 1;
      if (held === total) {
        const all = new Uint8Array(total);
        let at = 0;
        for (const r of received) all.set(r, (at += r.length) - r.length);
        return Promise.resolve(
          Response.json(
            {
              id: 'item',
              name: 'b',
              size: total,
              file: { hashes: { quickXorHash: quickXorHash(all) } },
            },
            { status: 201 },
          ),
        );
      }
      return Promise.resolve(Response.json({ nextExpectedRanges: [`${held}-`] }, { status: 202 }));
    },
  } as unknown as OneDriveApi;
  const keep = (n: number, part: Uint8Array) => {
    received.push(part);
    held = n;
  };
  return { api, log, keep };
}

const bytes = (n: number) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) out[i] = (i * 31) & 0xff;
  return out;
};
const piecesFor = (data: Uint8Array) =>
  piecesOf(
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(data);
        c.close();
      },
    }).getReader(),
    FRAGMENT_BYTES,
    data.length,
    {
      digest: (b) => Promise.resolve({ bytes: b, digest: new Uint8Array(0) }),
      onEnd: () => Promise.resolve(),
    },
  );

describe('sendFragments', () => {
  it('sends fragments in order, each but the last a whole number of units, and hashes them', async () => {
    const data = bytes(2 * FRAGMENT_BYTES + 1000);
    const s = fakeSession(data.length, () => undefined);
    const hash = new QuickXorHash();
    const progress: number[] = [];
    const item = await sendFragments(s.api, 'u', piecesFor(data), data.length, hash, {
      onProgress: (n) => progress.push(n),
    });
    expect(s.log).toEqual([
      `PUT bytes 0-${FRAGMENT_BYTES - 1}/${data.length}`,
      `PUT bytes ${FRAGMENT_BYTES}-${2 * FRAGMENT_BYTES - 1}/${data.length}`,
      `PUT bytes ${2 * FRAGMENT_BYTES}-${data.length - 1}/${data.length}`,
    ]);
    expect(progress).toEqual([FRAGMENT_BYTES, 2 * FRAGMENT_BYTES]);
    expect(item).toMatchObject({ size: data.length });
    expect(hash.base64()).toBe(quickXorHash(data));
  });

  it('after a lost connection asks the session what it holds and goes on from there', async () => {
    const data = bytes(FRAGMENT_BYTES + 10);
    let failed = false;
    const s = fakeSession(data.length, (call, init) => {
      // The second fragment's connection is lost (before OneDrive got it).
      if (call === 2 && init.method === 'PUT' && !failed) {
        failed = true;
        throw new ConnectionLost('');
      }
      return undefined;
    });
    const retrying: boolean[] = [];
    const item = await sendFragments(s.api, 'u', piecesFor(data), data.length, new QuickXorHash(), {
      onRetrying: (r) => retrying.push(r),
    });
    expect(s.log).toEqual([
      `PUT bytes 0-${FRAGMENT_BYTES - 1}/${data.length}`,
      `PUT bytes ${FRAGMENT_BYTES}-${data.length - 1}/${data.length}`,
      'GET',
      `PUT bytes ${FRAGMENT_BYTES}-${data.length - 1}/${data.length}`,
    ]);
    expect(retrying).toEqual([true, false]);
    expect(item).toMatchObject({ size: data.length });
  });

  it('goes on from the middle of a fragment when OneDrive kept part of it, after a 503', async () => {
    const data = bytes(FRAGMENT_BYTES);
    const half = FRAGMENT_BYTES / 2;
    const s = fakeSession(data.length, (call, init) => {
      if (call !== 1) return undefined;
      // OneDrive kept the first half of the fragment, then answered 503.
      s.keep(half, (init.body as Uint8Array).subarray(0, half));
      throw new CloudError(503, 'serviceNotAvailable', '', 1);
    });
    const item = await sendFragments(
      s.api,
      'u',
      piecesFor(data),
      data.length,
      new QuickXorHash(),
      {},
    );
    expect(s.log).toEqual([
      `PUT bytes 0-${FRAGMENT_BYTES - 1}/${data.length}`,
      'GET',
      `PUT bytes ${half}-${FRAGMENT_BYTES - 1}/${data.length}`,
    ]);
    expect(item).toMatchObject({ file: { hashes: { quickXorHash: quickXorHash(data) } } });
  });

  it('refuses an answer that expects bytes it was never sent', async () => {
    const data = bytes(FRAGMENT_BYTES + 1);
    const s = fakeSession(data.length, (call) =>
      call === 1
        ? Response.json({ nextExpectedRanges: [`${FRAGMENT_BYTES + 1}-`] }, { status: 202 })
        : undefined,
    );
    await expect(
      sendFragments(s.api, 'u', piecesFor(data), data.length, new QuickXorHash(), {}),
    ).rejects.toThrow(/expects byte/);
  });

  it('does not retry a refusal of the upload itself', async () => {
    const data = bytes(10);
    const s = fakeSession(data.length, () => {
      throw new CloudError(400, 'invalidRequest', '', null);
    });
    await expect(
      sendFragments(s.api, 'u', piecesFor(data), data.length, new QuickXorHash(), {}),
    ).rejects.toMatchObject({ status: 400 });
    expect(s.log).toHaveLength(1);
  });
});

describe('a full drive', () => {
  it('is not retried: the 507 fails the fragment at once', async () => {
    const data = bytes(10);
    const s = fakeSession(data.length, () => {
      throw new CloudError(507, 'quotaLimitReached', '', null);
    });
    await expect(
      sendFragments(s.api, 'u', piecesFor(data), data.length, new QuickXorHash(), {}),
    ).rejects.toMatchObject({ status: 507 });
    expect(s.log).toHaveLength(1);
  });
});

describe('putBlob', () => {
  /** A fake Graph and upload URL whose stored item states `stated` as its quickXorHash. */
  function fakeGraph(stated: (sent: Uint8Array) => string) {
    const calls: string[] = [];
    const api = {
      json: (target: string, init: RequestInit = {}) => {
        calls.push(`${init.method ?? 'GET'} ${target}`);
        return Promise.resolve({ uploadUrl: 'https://up.example/session' });
      },
      call: (target: string, init: RequestInit = {}) => {
        calls.push(`${init.method ?? 'GET'} ${target}`);
        return Promise.resolve(new Response(null, { status: 204 }));
      },
      content: (url: string, init: RequestInit = {}) => {
        calls.push(`${init.method ?? 'GET'} ${url}`);
        const sent = init.body as Uint8Array;
        return Promise.resolve(
          Response.json(
            {
              id: 'i',
              name: 'b',
              size: sent.length,
              file: { hashes: { quickXorHash: stated(sent) } },
            },
            { status: 201 },
          ),
        );
      },
    } as unknown as OneDriveApi;
    return { api, calls };
  }
  const source = (data: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(data);
        c.close();
      },
    });

  it('answers the blob when OneDrive states the quickXorHash of what was sent', async () => {
    setFolder('v1', 'FOLDER');
    const g = fakeGraph((sent) => quickXorHash(sent));
    const data = bytes(1000);
    expect(await putBlob(g.api, 'v1', 'blob1', data.length, source(data))).toEqual({
      ref: 'blob1',
      size: 1000,
    });
    expect(g.calls).toEqual([
      'POST /me/drive/items/FOLDER:/blob1:/createUploadSession',
      'PUT https://up.example/session',
    ]);
  });

  it('removes a copy whose quickXorHash differs and fails the put', async () => {
    setFolder('v1', 'FOLDER');
    const g = fakeGraph(() => 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=');
    const data = bytes(1000);
    await expect(putBlob(g.api, 'v1', 'blob2', data.length, source(data))).rejects.toMatchObject({
      name: 'StorageError',
      code: 'failed',
      message: contentHashMismatch,
    });
    expect(g.calls.at(-1)).toBe('DELETE /me/drive/items/FOLDER:/blob2:');
  });
});
