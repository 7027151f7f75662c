import { describe, expect, it } from 'vitest';
import { uploadChecksumTexts } from '@sealvault/protocol';
import { RETRY_DELAYS, shouldRetryUpload, UPLOAD_FAILED, uploadErrorMessage } from './tus.ts';

describe('upload retries', () => {
  it('keeps retrying a lost connection through every delay (about 70 s)', () => {
    for (let attempt = 0; attempt < RETRY_DELAYS.length; attempt++) {
      expect(shouldRetryUpload(0, attempt)).toBe(true);
    }
    expect(RETRY_DELAYS.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60_000);
  });
  it('retries a server error or a locked upload only a few times, a refusal never', () => {
    expect(shouldRetryUpload(503, 0)).toBe(true);
    expect(shouldRetryUpload(423, 3)).toBe(true);
    expect(shouldRetryUpload(500, 4)).toBe(false);
    for (const status of [400, 401, 404, 409, 413, 460]) {
      expect(shouldRetryUpload(status, 0)).toBe(false);
    }
  });
  it('sends a block refused as corrupted again, but not a file that failed its content hash', () => {
    const body = (message: string) => JSON.stringify({ error: { code: 'bad_request', message } });
    expect(shouldRetryUpload(460, 0, body(uploadChecksumTexts.blockCorrupted))).toBe(true);
    expect(shouldRetryUpload(460, 4, body(uploadChecksumTexts.blockCorrupted))).toBe(false);
    expect(shouldRetryUpload(460, 0, body(uploadChecksumTexts.fileMismatch))).toBe(false);
    expect(shouldRetryUpload(460, 0, 'not json')).toBe(false);
  });
});

describe('the message of a failed upload', () => {
  const failed = (status: number, body: string) => ({
    originalResponse: { getStatus: () => status, getBody: () => body },
  });
  it("is the server's own reason when it gave one, such as a name in use", () => {
    const conflict = JSON.stringify({
      error: { code: 'conflict', message: 'A file with this name already exists in this vault.' },
    });
    expect(uploadErrorMessage(failed(409, conflict))).toBe(
      'A file with this name already exists in this vault.',
    );
  });
  it('is the generic text for a lost connection or a body that is not ours', () => {
    expect(uploadErrorMessage(new Error('network'))).toBe(UPLOAD_FAILED);
    expect(uploadErrorMessage(failed(502, '<html>Bad gateway</html>'))).toBe(UPLOAD_FAILED);
  });
});
