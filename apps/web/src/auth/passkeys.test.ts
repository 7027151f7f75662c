// Signing in with a passkey (issue 30): a refusal of the sign-in options is shown when the button
// asked for them, and is quiet (a ceremony that never began) when the page's autofill did.
import type * as SimpleWebAuthn from '@simplewebauthn/browser';
import { afterEach, expect, it, vi } from 'vitest';
import { passkeyMessages } from '@sealvault/protocol';
import { PasskeyError, signInWithPasskey } from './passkeys.ts';

const auth = vi.hoisted(() => ({
  $fetch: vi.fn(),
  $store: { notify: vi.fn() },
}));
vi.mock('./authClient.ts', () => ({ authClient: auth }));
const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', async (actual) => ({
  ...(await actual<typeof SimpleWebAuthn>()),
  startAuthentication: webauthn.startAuthentication,
}));

afterEach(() => vi.clearAllMocks());

const tooMany = {
  data: null,
  error: { status: 429, statusText: 'Too Many Requests', code: 'TOO_MANY_REQUESTS' },
};

it('refused sign-in options: an error for the button, a quiet end for the autofill', async () => {
  auth.$fetch.mockResolvedValue(tooMany);
  const button = await signInWithPasskey().catch((e: unknown) => e);
  expect(button).toBeInstanceOf(PasskeyError);
  expect((button as PasskeyError).ceremony).toBe(false);
  expect((button as PasskeyError).code).toBe('TOO_MANY_REQUESTS');

  const autofill = await signInWithPasskey({ autofill: true }).catch((e: unknown) => e);
  expect(autofill).toBeInstanceOf(PasskeyError);
  expect((autofill as PasskeyError).ceremony).toBe(true);
  expect(webauthn.startAuthentication).not.toHaveBeenCalled();
});

it("the server's refusal of a passkey picked in the autofill is not quiet", async () => {
  auth.$fetch
    .mockResolvedValueOnce({ data: { challenge: 'c' }, error: null })
    .mockResolvedValueOnce({
      data: null,
      error: {
        status: 401,
        statusText: 'Unauthorized',
        code: 'PASSKEY_NOT_FOUND',
        message: passkeyMessages.unknownPasskey,
      },
    });
  webauthn.startAuthentication.mockResolvedValue({ id: 'x' });
  const err = await signInWithPasskey({ autofill: true }).catch((e: unknown) => e);
  expect((err as PasskeyError).ceremony).toBe(false);
  expect((err as PasskeyError).message).toBe(passkeyMessages.unknownPasskey);
  expect(auth.$store.notify).not.toHaveBeenCalled();
});
