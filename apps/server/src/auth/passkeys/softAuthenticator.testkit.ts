// A software WebAuthn authenticator for the server tests (issue 30): a P-256 key pair per
// credential, "none" attestation, user presence and verification flags, written from the WebAuthn
// Level 3 data layouts (authenticator data, attested credential data, COSE_Key in CBOR). It makes
// the JSON bodies a browser's SimpleWebAuthn would send, so the server's checks run for real.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** Just enough CBOR (RFC 8949) for attestation objects and COSE keys. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const s = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, s.length), s]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error('cbor: unsupported value');
}

const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: Buffer;
  counter: number;
}

export interface Flags {
  userPresent?: boolean;
  userVerified?: boolean;
}

function flagsByte({ userPresent = true, userVerified = true }: Flags, attested: boolean): number {
  return (userPresent ? 0x01 : 0) | (userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
}

export function softAuthenticator(origin: string) {
  const rpId = new URL(origin).hostname;
  const clientData = (type: string, challenge: string, o = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: o, crossOrigin: false }));

  return {
    /** The attestation response to registration options (`challenge` from the server). */
    register(challenge: string, flags: Flags = {}, o = origin) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const id = randomBytes(32);
      const credIdLen = Buffer.alloc(2);
      credIdLen.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([flagsByte(flags, true)]),
        Buffer.alloc(4),
        Buffer.alloc(16),
        credIdLen,
        id,
        cose,
      ]);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      const credential: SoftCredential = {
        id,
        privateKey,
        userHandle: randomBytes(16),
        counter: 0,
      };
      const response = {
        id: b64u(id),
        rawId: b64u(id),
        type: 'public-key',
        response: {
          clientDataJSON: b64u(clientData('webauthn.create', challenge, o)),
          attestationObject: b64u(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
      return { credential, response };
    },

    /** The assertion response of `credential` to authentication options. */
    assert(credential: SoftCredential, challenge: string, flags: Flags = {}, o = origin) {
      credential.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([flagsByte(flags, false)]),
        counter,
      ]);
      const cd = clientData('webauthn.get', challenge, o);
      const signature = sign(
        'sha256',
        Buffer.concat([authData, sha256(cd)]),
        credential.privateKey,
      );
      return {
        id: b64u(credential.id),
        rawId: b64u(credential.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64u(cd),
          authenticatorData: b64u(authData),
          signature: b64u(signature),
          userHandle: b64u(credential.userHandle),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
