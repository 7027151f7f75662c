// Whether the browser can use passkeys at all (WebAuthn), known at once: the sign-in form decides
// on its passkey button and autofill hint before passkeys.ts (SimpleWebAuthn and the protocol's
// passkey schemas) loads ([Note: auth forms without zod at start-up] in lazyResolver.ts). The
// same test as SimpleWebAuthn's browserSupportsWebAuthn.
export function passkeysSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function';
}
