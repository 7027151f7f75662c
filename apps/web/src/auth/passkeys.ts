// Passkeys to sign in (issue 30; server: apps/server/src/auth/passkeys/passkeys.plugin.ts, HTTP
// contract in docs/auth.md "Passkeys"). The WebAuthn ceremonies run through SimpleWebAuthn's
// browser half; the server's answers come back as Better Auth client results ({ data, error }).
import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import {
  passkeyListSchema,
  passkeyMessages,
  passkeySummarySchema,
  type PasskeySummary,
} from '@sealvault/protocol';
import { authClient } from './authClient.ts';
import { authErrorMessage, type AuthClientError } from './authErrors.ts';
import { msg } from '../i18n/i18n.ts';

export { passkeysSupported } from './passkeySupport.ts';
export { browserSupportsWebAuthnAutofill };

/** A failure to show as is: the server's message, or why the browser's ceremony stopped. */
export class PasskeyError extends Error {
  constructor(
    message: string,
    /** The server's error code, if it answered one, or the browser's. */
    readonly code?: string,
    /**
     * The browser's ceremony stopped (cancelled, timed out, refused), or an autofill wait could
     * not start; not the server's answer to a passkey picked.
     */
    readonly ceremony = false,
  ) {
    super(message);
    this.name = 'PasskeyError';
  }
}

async function call(path: string, fallback: string, body?: unknown): Promise<unknown> {
  const { data, error }: { data: unknown; error: AuthClientError | null } =
    await authClient.$fetch<unknown>(path, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { body }),
    });
  if (error) throw new PasskeyError(authErrorMessage(error, fallback), error.code);
  return data;
}

/** The browser stopped the ceremony: the user cancelled, it timed out, or the page moved on. */
function ceremonyFailure(err: unknown, fallback: string): PasskeyError {
  if (err instanceof PasskeyError) return err;
  if (err instanceof WebAuthnError) {
    if (err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
      return new PasskeyError(passkeyMessages.alreadyAdded, err.code, true);
    }
    return new PasskeyError(passkeyMessages.cancelled, err.code, true);
  }
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) {
    return new PasskeyError(passkeyMessages.cancelled, err.name, true);
  }
  return new PasskeyError(fallback, undefined, true);
}

export async function listPasskeys(): Promise<PasskeySummary[]> {
  const data = await call('/passkey/list', msg('Could not load your passkeys'));
  return passkeyListSchema.parse(data).passkeys;
}

/** Creates a passkey on this device (or a security key, or a phone) and adds it to the account. */
export async function addPasskey(name: string): Promise<PasskeySummary> {
  const fallback = passkeyMessages.addFailed;
  const options = (await call(
    '/passkey/register-options',
    fallback,
    {},
  )) as PublicKeyCredentialCreationOptionsJSON;
  let response;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch (err) {
    throw ceremonyFailure(err, fallback);
  }
  const data = (await call('/passkey/register', fallback, { name, response })) as {
    passkey: unknown;
  };
  return passkeySummarySchema.parse(data.passkey);
}

export async function renamePasskey(id: string, name: string): Promise<void> {
  await call('/passkey/rename', msg('Could not rename the passkey'), { id, name });
}

export async function removePasskey(id: string): Promise<void> {
  await call('/passkey/remove', msg('Could not remove the passkey'), { id });
}

/**
 * Signs in with a passkey this browser offers. `autofill`: wait for the user to pick one in the
 * e-mail field's autofill (conditional mediation) instead of opening the browser's dialog; that
 * wait ends when another ceremony starts (WebAuthnAbortService) or `cancelAutofill` is called.
 */
export async function signInWithPasskey({ autofill = false } = {}): Promise<void> {
  const fallback = passkeyMessages.signInFailed;
  let options;
  try {
    options = (await call(
      '/passkey/sign-in-options',
      fallback,
      {},
    )) as PublicKeyCredentialRequestOptionsJSON;
  } catch (err) {
    // An autofill wait that could not start (the options refused, the network down) is, to a
    // visitor who picked nothing, a ceremony that never began: the page says nothing of it.
    if (autofill && err instanceof PasskeyError)
      throw new PasskeyError(err.message, err.code, true);
    throw err;
  }
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
  } catch (err) {
    throw ceremonyFailure(err, fallback);
  }
  await call('/sign-in/passkey', fallback, { response });
  // The session store refetches, as Better Auth's client does after its own sign-ins (it only
  // signals those it knows by path).
  authClient.$store.notify('$sessionSignal');
}

export function cancelAutofill(): void {
  WebAuthnAbortService.cancelCeremony();
}
