// SSH keys for the SSH key item (issue 20): an Ed25519 pair generated in the browser with
// WebCrypto, written in OpenSSH's formats, and pasted OpenSSH keys read for their public key and
// fingerprint. The formats are small and fixed (RFC 8709 §4 for the public key blob, OpenSSH's
// PROTOCOL.key for the private key file), so they are encoded here rather than with an npm
// library: the ones that read them (sshpk, ssh2) need Node's Buffer and crypto in the browser.
import type { SshFields } from './transfer/model.ts';
import { msg } from '../i18n/i18n.ts';

const enc = new TextEncoder();
const AUTH_MAGIC = 'openssh-key-v1\0';
const BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----';
const END = '-----END OPENSSH PRIVATE KEY-----';

// Texts marked as ours (conventions.md, "Errors and messages").
export const SSH_ERRORS = {
  unreadable: msg(
    'This is not an OpenSSH key. Paste a public key ("ssh-ed25519 AAAA...") or a private key ("-----BEGIN OPENSSH PRIVATE KEY-----").',
  ),
  pem: msg(
    'This private key is in the older PEM format. Convert it with "ssh-keygen -p -f <file>" or paste its public key.',
  ),
} as const;

const u32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
/** An SSH "string": its length as uint32, then its bytes. */
const sshString = (b: Uint8Array | string) => {
  const bytes = typeof b === 'string' ? enc.encode(b) : b;
  return concat(u32(bytes.length), bytes);
};

const toBase64 = (b: Uint8Array): string => {
  let s = '';
  for (const byte of b) s += String.fromCharCode(byte);
  return btoa(s);
};
const fromBase64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** OpenSSH's fingerprint of a public key blob: SHA256: and the unpadded base64 of its digest. */
export async function fingerprintOf(blob: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(blob)));
  return `SHA256:${toBase64(digest).replace(/=+$/, '')}`;
}

/** The public key blob of an Ed25519 key (RFC 8709 §4). */
const ed25519Blob = (publicKey: Uint8Array) =>
  concat(sshString('ssh-ed25519'), sshString(publicKey));

/** The unencrypted openssh-key-v1 file of an Ed25519 key, PEM-armoured as ssh-keygen writes it. */
export function encodeEd25519Private(
  seed: Uint8Array,
  publicKey: Uint8Array,
  comment: string,
  checkInt: number,
): string {
  const blob = ed25519Blob(publicKey);
  let section = concat(
    u32(checkInt),
    u32(checkInt),
    sshString('ssh-ed25519'),
    sshString(publicKey),
    sshString(concat(seed, publicKey)),
    sshString(comment),
  );
  // Padded with 1, 2, 3... to the cipher's block size (8 for "none").
  const pad = (8 - (section.length % 8)) % 8;
  section = concat(
    section,
    Uint8Array.from({ length: pad }, (_, i) => i + 1),
  );
  const file = concat(
    enc.encode(AUTH_MAGIC),
    sshString('none'),
    sshString('none'),
    sshString(''),
    u32(1),
    sshString(blob),
    sshString(section),
  );
  const lines = toBase64(file).match(/.{1,70}/g) ?? [];
  return `${BEGIN}\n${lines.join('\n')}\n${END}\n`;
}

/** A new Ed25519 key pair in OpenSSH's formats, made with WebCrypto (never leaves the page). */
export async function generateEd25519(comment = ''): Promise<SshFields> {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  // PKCS #8 of an Ed25519 key (RFC 8410 §7) ends with the 32-byte seed.
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const seed = pkcs8.slice(pkcs8.length - 32);
  const check = crypto.getRandomValues(new Uint32Array(1))[0]!;
  const blob = ed25519Blob(publicKey);
  const publicLine = `ssh-ed25519 ${toBase64(blob)}${comment ? ` ${comment}` : ''}`;
  return {
    publicKey: publicLine,
    privateKey: encodeEd25519Private(seed, publicKey, comment, check),
    fingerprint: await fingerprintOf(blob),
  };
}

/** Reads SSH strings off a byte array, failing on anything out of bounds. */
class Reader {
  at = 0;
  constructor(private readonly b: Uint8Array) {}
  u32(): number {
    if (this.at + 4 > this.b.length) throw new Error('short');
    const v = new DataView(this.b.buffer, this.b.byteOffset + this.at, 4).getUint32(0);
    this.at += 4;
    return v;
  }
  bytes(): Uint8Array {
    const n = this.u32();
    if (this.at + n > this.b.length) throw new Error('short');
    const v = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  text(): string {
    return new TextDecoder().decode(this.bytes());
  }
}

/**
 * The public key and fingerprint of a pasted OpenSSH key: a public key line (any key type), or a
 * private key file (its public part is stored unencrypted, so a passphrase-protected key reads
 * too). Throws an Error with one of {@link SSH_ERRORS}.
 */
export async function readOpenSshKey(text: string): Promise<SshFields> {
  const t = text.trim();
  if (/^-----BEGIN (RSA|EC|DSA|ENCRYPTED|) ?PRIVATE KEY-----/.test(t)) {
    throw new Error(SSH_ERRORS.pem);
  }
  try {
    if (t.startsWith(BEGIN)) {
      const body = t.slice(BEGIN.length, t.indexOf(END)).replace(/\s+/g, '');
      const file = fromBase64(body);
      const magic = enc.encode(AUTH_MAGIC);
      if (!magic.every((b, i) => file[i] === b)) throw new Error('magic');
      const r = new Reader(file.subarray(magic.length));
      r.text(); // cipher
      r.text(); // kdf
      r.bytes(); // kdf options
      if (r.u32() < 1) throw new Error('no keys');
      const blob = r.bytes();
      const type = new Reader(blob).text();
      return {
        privateKey: `${t}\n`,
        publicKey: `${type} ${toBase64(blob)}`,
        fingerprint: await fingerprintOf(blob),
      };
    }
    const [type, data, ...comment] = t.split(/\s+/);
    if (!type || !data) throw new Error('parts');
    const blob = fromBase64(data);
    if (new Reader(blob).text() !== type) throw new Error('type');
    return {
      privateKey: '',
      publicKey: [type, data, ...comment].join(' '),
      fingerprint: await fingerprintOf(blob),
    };
  } catch {
    throw new Error(SSH_ERRORS.unreadable);
  }
}
