import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, jsonInit, requestWithConflict } from './client.ts';

const ok = z.object({ saved: z.literal(true) });
const conflict = z.object({ error: z.object({ message: z.string() }), current: z.number() });
class Stale extends Error {
  constructor(readonly current: number) {
    super('stale');
  }
}
const answer = (status: number, body: unknown) =>
  vi.stubGlobal('fetch', () => Promise.resolve(Response.json(body, { status })));
const send = () =>
  requestWithConflict(ok, '/api/x', jsonInit('PUT', {}), conflict, (c) => new Stale(c.current));

afterEach(() => vi.unstubAllGlobals());

describe('requestWithConflict', () => {
  it('parses a success', async () => {
    answer(200, { saved: true });
    await expect(send()).resolves.toEqual({ saved: true });
  });

  it("turns a 409 with the stored version into the caller's error", async () => {
    answer(409, { error: { code: 'conflict', message: 'newer' }, current: 7 });
    await expect(send()).rejects.toEqual(new Stale(7));
  });

  it('reads any other failure, a 409 without the stored version included, as an ApiError', async () => {
    answer(409, { error: { code: 'conflict', message: 'Taken.' } });
    await expect(send()).rejects.toBeInstanceOf(ApiError);
    answer(403, { error: { code: 'forbidden', message: 'Read-only.' } });
    await expect(send()).rejects.toMatchObject({ status: 403, message: 'Read-only.' });
  });
});
