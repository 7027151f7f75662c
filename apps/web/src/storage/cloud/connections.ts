// Cloud accounts connected in this browser (docs/product.md §3 "Cloud connection", §4 "Provider
// connection"). Tokens stay in this browser, in local storage, as the spec says: Google Drive
// keeps access_token and expires_at, Dropbox accessToken and expiresAt (and the refresh token
// that renews it without asking); OneDrive (ours, issue 26) keeps Dropbox's shape. The server never sees them. The store also holds this page's
// passing states (connecting, failed) and tells subscribers of every change, including changes
// made in another tab (the 'storage' event).
export type CloudId = 'dropbox' | 'googledrive' | 'onedrive';

export interface DropboxToken {
  accessToken: string;
  /** ms since the epoch */
  expiresAt: number;
  refreshToken?: string;
}

export interface DriveToken {
  access_token: string;
  /** ms since the epoch */
  expires_at: number;
}

/** OneDrive's token: Dropbox's shape (an access token, its expiry and a refresh token). */
export type OneDriveToken = DropboxToken;

interface Tokens {
  dropbox: DropboxToken;
  googledrive: DriveToken;
  onedrive: OneDriveToken;
}

const KEYS: Record<CloudId, string> = {
  dropbox: 'sealvault.dropbox',
  googledrive: 'sealvault.googledrive',
  onedrive: 'sealvault.onedrive',
};

export type PassingState = { status: 'connecting' } | { status: 'failed'; error: string };

const listeners = new Set<() => void>();
const passing = new Map<CloudId, PassingState>();
let ver = 0;
const changed = () => {
  ver += 1;
  for (const l of listeners) l();
};

function read<K extends CloudId>(id: K): Tokens[K] | null {
  try {
    const raw = localStorage.getItem(KEYS[id]);
    if (!raw) return null;
    const v = JSON.parse(raw) as Record<string, unknown>;
    const ok =
      id !== 'googledrive'
        ? typeof v.accessToken === 'string' && typeof v.expiresAt === 'number'
        : typeof v.access_token === 'string' && typeof v.expires_at === 'number';
    return ok ? (v as unknown as Tokens[K]) : null;
  } catch {
    return null;
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || Object.values(KEYS).includes(e.key)) changed();
  });
}

export const connections = {
  token: read,
  save: <K extends CloudId>(id: K, token: Tokens[K]): void => {
    localStorage.setItem(KEYS[id], JSON.stringify(token));
    passing.delete(id);
    changed();
  },
  /** Forgets the account (disconnect, or a token the provider no longer accepts). */
  clear: (id: CloudId): void => {
    localStorage.removeItem(KEYS[id]);
    changed();
  },
  isConnected: (id: CloudId): boolean => read(id) !== null,
  passing: (id: CloudId): PassingState | undefined => passing.get(id),
  setPassing: (id: CloudId, state: PassingState | null): void => {
    if (state) passing.set(id, state);
    else passing.delete(id);
    changed();
  },
  /** Tells subscribers that something they read changed (the server's configuration). */
  touch: changed,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  version: () => ver,
};
