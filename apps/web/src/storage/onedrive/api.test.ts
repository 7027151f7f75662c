import { describe, expect, it } from 'vitest';
import { CloudError } from '../cloud/http.ts';
import { fail, graphError, innerCode, isMissing, texts } from './api.ts';

const answer = (status: number, code: string, inner?: string, headers: HeadersInit = {}) =>
  new Response(
    JSON.stringify({
      error: { code, message: `m ${code}`, innerError: inner ? { code: inner } : {} },
    }),
    { status, headers },
  );

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
};

describe('Graph errors', () => {
  it('reads error.code as the reason, the message, the inner code and Retry-After', async () => {
    const err = await graphError(
      answer(429, 'activityLimitReached', 'throttledRequest', { 'retry-after': '3' }),
    );
    expect(err).toMatchObject({ status: 429, reason: 'activityLimitReached', waitMs: 3000 });
    expect(err.message).toContain('m activityLimitReached');
    expect(innerCode(err)).toBe('throttledRequest');
    expect(innerCode(new Error('x'))).toBeNull();
  });

  it('keeps a text or empty answer without a reason', async () => {
    const err = await graphError(new Response('Bad gateway', { status: 502 }));
    expect(err).toMatchObject({ status: 502, reason: '' });
    expect((await graphError(new Response(null, { status: 503 }))).reason).toBe('');
  });

  it('knows a missing item by 404 itemNotFound', async () => {
    expect(isMissing(await graphError(answer(404, 'itemNotFound')))).toBe(true);
    expect(isMissing(await graphError(answer(403, 'accessDenied')))).toBe(false);
    expect(isMissing(new Error('404'))).toBe(false);
  });

  it("says a full OneDrive in its own words, anything else in the caller's", async () => {
    for (const full of [
      await graphError(answer(507, 'quotaLimitReached', 'quotaLimitReached')),
      await graphError(answer(403, 'quotaLimitReached')),
    ]) {
      expect(thrown(() => fail(full, texts.uploadFailed))).toMatchObject({
        name: 'StorageError',
        code: 'no_space',
        message: 'Your OneDrive is full. Free some space there or choose another storage provider.',
      });
    }
    const other = new CloudError(400, 'invalidRequest', 'x', null);
    expect(thrown(() => fail(other, texts.uploadFailed))).toMatchObject({
      code: 'failed',
      message: 'Failed to upload to OneDrive',
    });
  });
});
