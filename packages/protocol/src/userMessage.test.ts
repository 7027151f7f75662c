import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, apiErrorFrom } from './client.ts';
import { messages } from './messages.ts';
import { messageForUser, userMessage } from './userMessage.ts';

const FALLBACK = 'Failed to rename file';
const json = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

describe('userMessage', () => {
  it("shows the server's message for a 4xx answer", async () => {
    const err = await apiErrorFrom(json(409, 'conflict', 'A file with this name already exists'));
    expect(userMessage(err, FALLBACK)).toBe('A file with this name already exists');
    expect(userMessage(new ApiError(404, 'not_found', 'Vault not found'), FALLBACK)).toBe(
      'Vault not found',
    );
  });

  it("shows the fallback for a text/plain 500 'Internal Server Error'", async () => {
    const res = new Response('Internal Server Error', {
      status: 500,
      statusText: 'Internal Server Error',
      headers: { 'content-type': 'text/plain' },
    });
    const err = await apiErrorFrom(res);
    expect(err.message).toBe('Internal Server Error');
    expect(userMessage(err, FALLBACK)).toBe(FALLBACK);
  });

  it("shows the fallback for the server's generic 500, any 'internal' code and a 502 page", async () => {
    const generic = await apiErrorFrom(json(500, 'internal', messages.generic.internal));
    expect(userMessage(generic, FALLBACK)).toBe(FALLBACK);
    expect(userMessage(new ApiError(400, 'internal', 'Bad Request'), FALLBACK)).toBe(FALLBACK);
    const gateway = await apiErrorFrom(
      new Response('<html>502 Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    expect(userMessage(gateway, FALLBACK)).toBe(FALLBACK);
    expect(userMessage(new ApiError(503, 'rate_limited', 'Try later'), FALLBACK)).toBe(FALLBACK);
  });

  it("shows a full disk's message (507 storage_full), which says what happened", async () => {
    const err = await apiErrorFrom(json(507, 'storage_full', 'The server is out of space.'));
    expect(userMessage(err, FALLBACK)).toBe('The server is out of space.');
  });

  it('shows the fallback for a network failure, an unparsable answer and empty messages', () => {
    expect(userMessage(new TypeError('Failed to fetch'), FALLBACK)).toBe(FALLBACK);
    expect(userMessage(new SyntaxError('Unexpected token < in JSON'), FALLBACK)).toBe(FALLBACK);
    const parsed = z.object({ id: z.string() }).safeParse({});
    expect(parsed.success).toBe(false);
    expect(userMessage(parsed.error, FALLBACK)).toBe(FALLBACK);
    expect(userMessage(new DOMException('', 'OperationError'), FALLBACK)).toBe(FALLBACK);
    expect(userMessage(new ApiError(409, 'conflict', '  '), FALLBACK)).toBe(FALLBACK);
    expect(userMessage(new Error(''), FALLBACK)).toBe(FALLBACK);
    expect(userMessage('boom', FALLBACK)).toBe(FALLBACK);
    expect(userMessage(undefined, FALLBACK)).toBe(FALLBACK);
  });

  it("keeps the app's own errors, whose messages are written for users", () => {
    expect(userMessage(new Error(messages.vaults.notUnlocked), FALLBACK)).toBe(
      messages.vaults.notUnlocked,
    );
    class StorageError extends Error {}
    expect(messageForUser(new StorageError('Failed to store the file in this browser.'))).toBe(
      'Failed to store the file in this browser.',
    );
  });
});
