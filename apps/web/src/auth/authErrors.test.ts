import { expect, it } from 'vitest';
import { messages } from '@sealvault/protocol';
import { authErrorMessage } from './authErrors.ts';

it("shows the server's message, the fallback without one, and one text for a rate limit", () => {
  expect(authErrorMessage({ message: 'Invalid email or password' }, 'Login failed')).toBe(
    'Invalid email or password',
  );
  expect(authErrorMessage({ message: '  ' }, 'Login failed')).toBe('Login failed');
  expect(authErrorMessage(null, 'Login failed')).toBe('Login failed');
  expect(
    authErrorMessage({ status: 429, message: 'Too many requests. Please try again later.' }, 'x'),
  ).toBe(messages.auth.tooManyRequests);
});

it("shows the fallback for a server error, never its raw 'Internal Server Error'", () => {
  expect(
    authErrorMessage({ status: 500, message: 'Internal Server Error' }, 'Registration failed'),
  ).toBe('Registration failed');
  expect(authErrorMessage({ status: 502, message: 'Bad Gateway' }, 'Login failed')).toBe(
    'Login failed',
  );
});

it('says so when the server is out of storage space (503 storage_full in the API shape)', () => {
  const full = {
    status: 503,
    error: { code: 'storage_full', message: messages.generic.storageFull },
  };
  expect(authErrorMessage(full, 'Login failed')).toBe(messages.generic.storageFull);
  expect(
    authErrorMessage({ status: 503, error: { code: 'internal', message: 'x' } }, 'Login failed'),
  ).toBe('Login failed');
});
