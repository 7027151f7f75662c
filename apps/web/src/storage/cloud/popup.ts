// A provider's sign-in in a popup (docs/product.md §7: 500 by 700 pixels, with a state check). The popup
// comes back to one of our return pages (/dropbox-auth, /google-auth, /onedrive-auth:
// OAuthReturn.tsx), which hands what the provider put in its address to this window over a
// BroadcastChannel of this origin (and window.opener where it still exists), then closes. Every way it can end without a result
// is a ConnectError with its own kind, for the caller to word.

export type ConnectErrorKind = 'blocked' | 'closed' | 'denied' | 'state' | 'failed';

export class ConnectError extends Error {
  override readonly name = 'ConnectError';
  constructor(
    readonly kind: ConnectErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export const OAUTH_CHANNEL = 'sealvault-oauth';

/** A random string of `length` characters from the URL-safe alphabet (RFC 7636 unreserved). */
export function randomString(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
  // Bytes at or above the last whole multiple of 66 would bias the draw: they are skipped.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length))) {
      if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** The PKCE code challenge of `verifier` by the S256 method (RFC 7636 §4.2). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/**
 * Opens `url` in a centred 500x700 popup and resolves with the parameters the return page
 * received (query and fragment together), once their `state` is `state`.
 */
export function signInPopup(
  url: string,
  state: string,
  timeoutMs = 5 * 60_000,
): Promise<URLSearchParams> {
  const width = 500;
  const height = 700;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  const popup = window.open(
    url,
    'sealvault-signin',
    `popup=yes,width=${width},height=${height},left=${left},top=${top}`,
  );
  if (!popup) return Promise.reject(new ConnectError('blocked', 'The popup was blocked.'));
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(OAUTH_CHANNEL);
    let closedSeen = 0;
    const done = (fn: () => void) => {
      channel.close();
      window.removeEventListener('message', onWindowMessage);
      clearInterval(poll);
      clearTimeout(timer);
      fn();
    };
    const onResult = (raw: unknown) => {
      if (typeof raw !== 'object' || raw === null) return;
      const params = (raw as { params?: unknown }).params;
      if (typeof params !== 'string') return;
      const got = new URLSearchParams(params);
      if (got.get('state') !== state) {
        // Another sign-in's answer, or a forged one: not ours.
        return done(() => reject(new ConnectError('state', 'The sign-in answer did not match.')));
      }
      const error = got.get('error');
      if (error === 'access_denied')
        return done(() => reject(new ConnectError('denied', 'Access was denied.')));
      if (error) return done(() => reject(new ConnectError('failed', error)));
      done(() => resolve(got));
    };
    channel.onmessage = (e: MessageEvent) => onResult(e.data);
    function onWindowMessage(e: MessageEvent) {
      if (e.origin === window.location.origin) onResult(e.data);
    }
    window.addEventListener('message', onWindowMessage);
    // A closed popup without an answer: the user closed it. The answer is posted just before the
    // page closes itself, so wait a moment after seeing it closed.
    const poll = setInterval(() => {
      if (!popup.closed) return;
      closedSeen += 1;
      if (closedSeen >= 3)
        done(() => reject(new ConnectError('closed', 'The sign-in window was closed.')));
    }, 250);
    const timer = setTimeout(() => {
      popup.close();
      done(() => reject(new ConnectError('closed', 'The sign-in took too long.')));
    }, timeoutMs);
  });
}
