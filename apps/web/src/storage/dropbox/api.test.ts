import { describe, expect, it } from 'vitest';
import { CloudError } from '../cloud/http.ts';
import { dropboxError, headerJson, isNotFound } from './api.ts';
import { correctOffset } from './upload-session.ts';

describe('Dropbox API helpers', () => {
  it('escapes every non-ASCII character of a header argument as \\uXXXX', () => {
    expect(headerJson({ path: '/Sealvault/Ünïcode ✓' })).toBe(
      '{"path":"/Sealvault/\\u00dcn\\u00efcode \\u2713"}',
    );
    expect(JSON.parse(headerJson({ path: '/é' }))).toEqual({ path: '/é' });
  });

  it("reads an error_summary, Retry-After, and a 400's text", async () => {
    const err = await dropboxError(
      new Response(JSON.stringify({ error_summary: 'path/not_found/..', error: {} }), {
        status: 409,
        headers: { 'retry-after': '2' },
      }),
    );
    expect(err).toMatchObject({ status: 409, reason: 'path/not_found/..', waitMs: 2000 });
    expect(isNotFound(err)).toBe(true);
    const text = await dropboxError(new Response('Bad Dropbox-API-Arg', { status: 400 }));
    expect(text).toMatchObject({ status: 400, reason: 'Bad Dropbox-API-Arg' });
    expect(isNotFound(text)).toBe(false);
  });

  it('finds correct_offset in both shapes of incorrect_offset, and nothing elsewhere', () => {
    const lookup = (error: unknown) => new CloudError(409, 'lookup_failed', '', null, { error });
    expect(correctOffset(lookup({ '.tag': 'incorrect_offset', correct_offset: 8 }))).toBe(8);
    expect(correctOffset(lookup({ incorrect_offset: { correct_offset: 16 } }))).toBe(16);
    expect(correctOffset(lookup({ '.tag': 'not_found' }))).toBeNull();
    expect(correctOffset(new CloudError(500, 'x', '', null))).toBeNull();
  });
});
