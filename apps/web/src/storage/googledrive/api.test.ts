import { describe, expect, it } from 'vitest';
import { driveError, fail, isMissing, transient } from './api.ts';

const answer = (status: number, reason: string) =>
  new Response(JSON.stringify({ error: { message: `m ${reason}`, errors: [{ reason }] } }), {
    status,
  });

describe('Google Drive API helpers', () => {
  it("reads the first error item's reason and the message", async () => {
    const err = await driveError(answer(404, 'notFound'));
    expect(err).toMatchObject({ status: 404, reason: 'notFound' });
    expect(err.message).toContain('m notFound');
    expect(isMissing(err)).toBe(true);
  });

  it('treats 429, 5xx and the rate-limit 403s as "wait and retry", other 403s not', async () => {
    expect(transient(await driveError(answer(429, 'rateLimitExceeded')))).toBe(true);
    expect(transient(await driveError(answer(503, 'backendError')))).toBe(true);
    expect(transient(await driveError(answer(403, 'userRateLimitExceeded')))).toBe(true);
    expect(transient(await driveError(answer(403, 'insufficientFilePermissions')))).toBe(false);
  });

  it('says a full Drive in its own words', async () => {
    const full = await driveError(answer(403, 'storageQuotaExceeded'));
    let thrown: unknown;
    try {
      fail(full, 'Failed to upload to Google Drive');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: 'no_space' });
    expect((thrown as Error).message).toMatch(/Drive is full/);
  });
});
