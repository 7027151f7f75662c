// The one error type of the package. Codes are stable; messages are safe to show. Errors cross
// the Worker boundary as plain `{ code, message }` objects and are rebuilt on the other side,
// because `instanceof` does not survive structured cloning (docs/conventions.md, "Crypto").

export type CryptoErrorCode =
  /** Unlock failed, for any reason at all (wrong password, tampered slot, bad parameters). */
  | 'INVALID_PASSWORD'
  /** Ciphertext, header, wrapped key, metadata or item failed to authenticate or parse. */
  | 'DECRYPT_FAILED'
  /** KDF parameters asked for are below the floor or above the cap (vault-format.md §1). */
  | 'KDF_PARAMS'
  /** The session is unknown or was locked. */
  | 'LOCKED'
  /** A caller error: malformed id, out-of-range argument, calls out of order. */
  | 'INVALID_INPUT'
  /** A download the Worker fetched itself found no data (404; fetched.ts). */
  | 'NOT_FOUND'
  /** A download the Worker fetched itself failed on the way (fetched.ts). */
  | 'FETCH_FAILED'
  /** A download the Worker wrote to a file itself could not be written (fetched.ts). */
  | 'WRITE_FAILED'
  /** Anything unexpected; the message leaks nothing. */
  | 'INTERNAL';

export const MESSAGES = {
  INVALID_PASSWORD: 'Invalid password',
  DECRYPT_FAILED: 'The data could not be decrypted: it is damaged or was tampered with',
  KDF_PARAMS: 'Key derivation parameters are outside the allowed range',
  LOCKED: 'The vault is locked',
  INVALID_INPUT: 'Invalid input to a crypto operation',
  NOT_FOUND: 'File data not found',
  FETCH_FAILED: 'Failed to load file content.',
  WRITE_FAILED: 'The file could not be saved.',
  INTERNAL: 'Internal crypto error',
} as const satisfies Record<CryptoErrorCode, string>;

export class CryptoError extends Error {
  override readonly name = 'CryptoError';
  constructor(
    readonly code: CryptoErrorCode,
    message: string = MESSAGES[code],
  ) {
    super(message);
  }
}

export interface WireError {
  code: CryptoErrorCode;
  message: string;
}

const CODES = new Set<string>(Object.keys(MESSAGES));

/** Turns any thrown value into a safe wire error: unknown errors become INTERNAL. */
export function toWireError(err: unknown): WireError {
  if (err instanceof CryptoError) return { code: err.code, message: err.message };
  return { code: 'INTERNAL', message: MESSAGES.INTERNAL };
}

export function fromWireError(wire: unknown): CryptoError {
  const w = wire as Partial<WireError> | null;
  if (w && typeof w.code === 'string' && CODES.has(w.code) && typeof w.message === 'string') {
    return new CryptoError(w.code, w.message);
  }
  return new CryptoError('INTERNAL');
}

/** Runs `fn`; any failure becomes exactly `new CryptoError(code)` (one path, one message). */
export async function failAs<T>(code: CryptoErrorCode, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch {
    throw new CryptoError(code);
  }
}
