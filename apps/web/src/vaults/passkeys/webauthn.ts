// WebAuthn for vault passkeys (issue 30; vault-format.md "Passkey slots"): the PRF extension
// gives, for a passkey and a salt, 32 bytes that only that passkey can produce. They go straight
// to the crypto Worker, which derives the slot's key from them; they are never sent to the server
// or logged. The server verifies none of these ceremonies: the unlock is local crypto.
// (Passkeys to sign in are another thing: auth/passkeys.ts.)
import { credentialIdBytes, PASSKEY_SALT_BYTES } from '@sealvault/crypto';
import { msg } from '../../i18n/i18n.ts';

// Shown with t(text): a PasskeyError's message is one of these (English, the id).
export const passkeyTexts = {
  noPrf: msg(
    'This browser cannot use passkeys to unlock vaults, so this vault opens with its password here.',
  ),
  noSlots: msg(
    'This vault has no passkey yet: it opens with its password. Add one from the vault menu.',
  ),
  cancelled: msg('The passkey was not used. Try again, or use the password.'),
  notPrf: msg(
    'This passkey cannot unlock vaults (it does not support the PRF extension). Nothing was added.',
  ),
  already: msg('This passkey already unlocks this vault.'),
  failed: msg('The passkey could not be used. Try again, or use the password.'),
} as const;

/** A failed ceremony, with a text to show (through t()). */
export class PasskeyError extends Error {
  override readonly name = 'PasskeyError';
}

/** Does this browser offer WebAuthn's PRF extension? (getClientCapabilities; no = password only.) */
export async function prfSupported(): Promise<boolean> {
  const PKC = globalThis.PublicKeyCredential as typeof PublicKeyCredential | undefined;
  if (!PKC || typeof PKC.getClientCapabilities !== 'function' || !navigator.credentials) {
    return false;
  }
  try {
    const caps = await PKC.getClientCapabilities();
    return caps['extension:prf'] === true;
  } catch {
    return false;
  }
}

export const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/** The 32 bytes of a PRF result, copied (the caller hands them to the Worker, which wipes them). */
function prfBytes(results: AuthenticationExtensionsPRFValues | undefined): Uint8Array | null {
  const first = results?.first;
  if (!first) return null;
  const bytes = ArrayBuffer.isView(first)
    ? new Uint8Array(first.buffer, first.byteOffset, first.byteLength)
    : new Uint8Array(first);
  const copy = bytes.length === 32 ? bytes.slice() : null;
  bytes.fill(0); // the browser's copy of the result, no longer needed
  return copy;
}

function ceremonyError(err: unknown): PasskeyError {
  if (err instanceof PasskeyError) return err;
  const name = err instanceof DOMException ? err.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return new PasskeyError(passkeyTexts.cancelled);
  if (name === 'InvalidStateError') return new PasskeyError(passkeyTexts.already);
  return new PasskeyError(passkeyTexts.failed);
}

const descriptor = (id: string): PublicKeyCredentialDescriptor => ({
  type: 'public-key',
  id: credentialIdBytes(id),
});

/**
 * Makes a new passkey for a vault and evaluates its PRF for `salt`: `create()` with the PRF
 * extension, then, when the authenticator only says PRF is enabled, one `get()` for the result.
 * PasskeyError when the passkey has no PRF (nothing is added), or the ceremony failed.
 */
export async function createVaultPasskey(options: {
  salt: Uint8Array;
  userName: string;
  /** Credentials already in the vault: the same authenticator is not registered twice. */
  exclude: string[];
}): Promise<{ credentialId: string; prf: Uint8Array }> {
  if (options.salt.length !== PASSKEY_SALT_BYTES) throw new PasskeyError(passkeyTexts.failed);
  const salt = options.salt.slice();
  try {
    const created = (await navigator.credentials.create({
      publicKey: {
        rp: { id: location.hostname, name: 'SealVault' },
        user: { id: random(16), name: options.userName, displayName: options.userName },
        challenge: random(32),
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        excludeCredentials: options.exclude.map(descriptor),
        extensions: { prf: { eval: { first: salt } } },
      },
    })) as PublicKeyCredential | null;
    if (!created) throw new PasskeyError(passkeyTexts.cancelled);
    const credentialId = toBase64Url(new Uint8Array(created.rawId));
    const prf = created.getClientExtensionResults().prf;
    const now = prfBytes(prf?.results);
    if (now) return { credentialId, prf: now };
    if (prf?.enabled !== true) throw new PasskeyError(passkeyTexts.notPrf);
    // Enabled, but some authenticators evaluate the PRF only in an assertion.
    const later = await assertVaultPasskey([{ credentialId, salt }]).catch((err: unknown) => {
      throw err instanceof PasskeyError && err.message === passkeyTexts.failed
        ? new PasskeyError(passkeyTexts.notPrf)
        : err;
    });
    return { credentialId, prf: later.prf };
  } catch (err) {
    throw ceremonyError(err);
  }
}

/**
 * The unlock ceremony: `get()` over every passkey slot's credential, each with its own salt
 * (`evalByCredential`). Answers the credential used and its PRF output.
 */
export async function assertVaultPasskey(
  slots: { credentialId: string; salt: Uint8Array }[],
): Promise<{ credentialId: string; prf: Uint8Array }> {
  // Never an empty allow list: the browser would offer any passkey of this site.
  if (slots.length === 0) throw new PasskeyError(passkeyTexts.noSlots);
  try {
    const evalByCredential: Record<string, AuthenticationExtensionsPRFValues> = {};
    for (const s of slots) evalByCredential[s.credentialId] = { first: s.salt.slice() };
    const got = (await navigator.credentials.get({
      publicKey: {
        challenge: random(32),
        rpId: location.hostname,
        allowCredentials: slots.map((s) => descriptor(s.credentialId)),
        userVerification: 'required',
        extensions: { prf: { evalByCredential } },
      },
    })) as PublicKeyCredential | null;
    if (!got) throw new PasskeyError(passkeyTexts.cancelled);
    const credentialId = toBase64Url(new Uint8Array(got.rawId));
    const prf = prfBytes(got.getClientExtensionResults().prf?.results);
    if (!prf) throw new PasskeyError(passkeyTexts.failed);
    return { credentialId, prf };
  } catch (err) {
    throw ceremonyError(err);
  }
}
