// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageError } from '../provider.ts';
import { connections } from './connections.ts';
import {
  CloudError,
  cloudCall,
  ConnectionLost,
  failWith,
  retryAfterMs,
  type CloudService,
} from './http.ts';

const texts = { notConnected: 'Dropbox not connected', full: 'Full', failed: 'Failed' };

function service(over: Partial<CloudService> = {}): CloudService {
  return {
    id: 'dropbox',
    texts,
    token: () => Promise.resolve('t1'),
    renew: () => Promise.resolve(false),
    errorOf: async (res) => new CloudError(res.status, await res.text(), '', retryAfterMs(res), {}),
    isFull: (err) => err.reason === 'insufficient_space',
    ...over,
  };
}

const answer = (status: number, body = '', headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : body, { status, headers });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  vi.useFakeTimers();
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  connections.save('dropbox', { accessToken: 't1', expiresAt: Date.now() + 3_600_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  connections.clear('dropbox');
});

const headerOf = (call: number) =>
  new Headers(fetchMock.mock.calls[call]![1]!.headers).get('authorization');

describe('cloudCall', () => {
  it('sends the token and answers a success at once', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, 'ok'));
    const res = await cloudCall(service(), 'https://api.example/x');
    expect(await res.text()).toBe('ok');
    expect(headerOf(0)).toBe('Bearer t1');
  });

  it('waits as Retry-After says on a 429, telling onRetrying, then succeeds', async () => {
    fetchMock
      .mockResolvedValueOnce(answer(429, 'too_many', { 'retry-after': '3' }))
      .mockResolvedValueOnce(answer(200, 'ok'));
    const retrying: boolean[] = [];
    const call = cloudCall(
      service(),
      'https://api.example/x',
      {},
      {
        onRetrying: (r) => retrying.push(r),
      },
    );
    await vi.advanceTimersByTimeAsync(2_900);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(200);
    expect((await call).status).toBe(200);
    expect(retrying).toEqual([true, false]);
  });

  it('renews the token once after a 401 and sends the call again with the new one', async () => {
    let token = 't1';
    const renew = vi.fn(() => {
      token = 't2';
      return Promise.resolve(true);
    });
    fetchMock.mockResolvedValueOnce(answer(401, 'expired')).mockResolvedValueOnce(answer(200));
    const res = await cloudCall(service({ token: () => Promise.resolve(token), renew }), 'u');
    expect(res.status).toBe(200);
    expect(renew).toHaveBeenCalledTimes(1);
    expect([headerOf(0), headerOf(1)]).toEqual(['Bearer t1', 'Bearer t2']);
    expect(connections.isConnected('dropbox')).toBe(true);
  });

  it('forgets the connection and says "not connected" when the renewal fails or is refused again', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(answer(401, 'invalid_access_token')));
    const heard = vi.fn();
    const stop = connections.subscribe(heard);
    const err = await cloudCall(service({ renew: () => Promise.resolve(true) }), 'u').catch(
      (e: unknown) => e,
    );
    stop();
    expect(err).toBeInstanceOf(StorageError);
    expect(err).toMatchObject({ code: 'unavailable', message: 'Dropbox not connected' });
    expect(fetchMock).toHaveBeenCalledTimes(2); // the first try and one after the renewal
    expect(connections.isConnected('dropbox')).toBe(false);
    expect(heard).toHaveBeenCalled();
  });

  it('says "not connected" without a request when there is no token', async () => {
    const err = await cloudCall(service({ token: () => Promise.resolve(null) }), 'u').catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'unavailable', message: 'Dropbox not connected' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('retries a lost connection, but not when the request may have made something', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('network')).mockResolvedValueOnce(answer(200));
    const call = cloudCall(service(), 'u');
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await call).status).toBe(200);

    fetchMock.mockRejectedValueOnce(new TypeError('network'));
    await expect(cloudCall(service(), 'u', {}, { retryLost: false })).rejects.toBeInstanceOf(
      ConnectionLost,
    );
  });

  it('gives up after its tries and answers the provider error; a 4xx is not retried', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(answer(503, 'down')));
    const call = cloudCall(service(), 'u', {}, { tries: 2 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await call).toMatchObject({ status: 503, reason: 'down' });
    expect(fetchMock).toHaveBeenCalledTimes(2);

    fetchMock.mockReset();
    fetchMock.mockImplementation(() => Promise.resolve(answer(409, 'path/not_found')));
    await expect(cloudCall(service(), 'u')).rejects.toMatchObject({ status: 409 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('does not wait for a full account, even when it answers a 5xx (OneDrive: 507)', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(answer(507, 'insufficient_space')));
    await expect(cloudCall(service(), 'u')).rejects.toMatchObject({ status: 507 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when aborted', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(answer(429, 'slow', { 'retry-after': '30' })),
    );
    const abort = new AbortController();
    const call = cloudCall(service(), 'u', {}, { signal: abort.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    abort.abort();
    expect(await call).toMatchObject({ code: 'aborted' });
  });

  it('sends no Authorization header to a pre-authenticated URL', async () => {
    fetchMock.mockResolvedValueOnce(answer(200));
    await cloudCall(service({ token: () => Promise.resolve(null) }), 'u', {}, { anonymous: true });
    expect(headerOf(0)).toBeNull();
  });
});

describe('failWith and retryAfterMs', () => {
  it('maps a full account to no_space, a lost connection to unavailable, the rest to failed', () => {
    const s = service();
    const full = new CloudError(409, 'insufficient_space', '', null);
    expect(() => failWith(s, full, 'Upload failed')).toThrow(
      expect.objectContaining({ code: 'no_space', message: 'Full' }),
    );
    expect(() => failWith(s, new ConnectionLost(''), 'Upload failed')).toThrow(
      expect.objectContaining({ code: 'unavailable', message: 'Upload failed' }),
    );
    expect(() => failWith(s, new Error('x'), 'Upload failed')).toThrow(
      expect.objectContaining({ code: 'failed', message: 'Upload failed' }),
    );
    const own = new StorageError('aborted', 'Cancelled');
    expect(() => failWith(s, own, 'Upload failed')).toThrow(own);
  });

  it('reads Retry-After in seconds or as a date, capped at a minute', () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    const at = (v: string) => retryAfterMs(answer(429, '', { 'retry-after': v }), now);
    expect(at('5')).toBe(5_000);
    expect(at('600')).toBe(60_000);
    expect(at('Thu, 26 Nov 2026 10:00:07 GMT')).toBe(7_000);
    expect(at('soon')).toBeNull();
    expect(retryAfterMs(answer(429), now)).toBeNull();
  });
});
