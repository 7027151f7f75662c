// [Note: IPN signature] The card payment provider (2Checkout / Verifone, docs/product.md §7) tells the server
// about an order with an Instant Payment Notification: an HTTP POST, application/x-www-form-
// urlencoded, whose fields arrive in a fixed order, some of them arrays (IPN_PID[], IPN_PNAME[],
// ...). The provider signs it with the merchant's secret key (PAYMENT_SECRET_KEY):
//
//   source    = for every field in the order received, except HASH, SIGNATURE_SHA2_256 and
//               SIGNATURE_SHA3_256: byteLength(value) followed by value, in decimal, with no
//               separator ("" contributes "0"); an array field contributes each of its elements
//               the same way, at the place of its first occurrence
//   signature = hex(HMAC-SHA256(secretKey, source))  -> the field SIGNATURE_SHA2_256
//               (HMAC-SHA3-256 -> SIGNATURE_SHA3_256; HMAC-MD5 -> HASH, the legacy field)
//
// We accept SIGNATURE_SHA2_256, or SIGNATURE_SHA3_256 when only that one is sent, compared in
// constant time. A notification with only the legacy MD5 HASH, or none, is refused: MD5 is not a
// signature we rely on, and the provider sends the SHA-2 field alongside it.
//
// The provider marks a notification delivered only when the reply carries a receipt signed the
// same way over IPN_PID[0], IPN_PNAME[0], IPN_DATE and the reply's own date (UTC, YYYYMMDDHHmmss):
//   <sig algo="sha256" date="DATE">hex(HMAC-SHA256(secretKey, source))</sig>
// (the legacy MD5 form was <EPAYMENT>DATE|HASH</EPAYMENT>). Until then it resends the
// notification at growing intervals, so handling must be idempotent (payments.service.ts).
// These are pure functions; nothing here logs a field, a signature or the key.
import crypto from 'node:crypto';

export interface IpnForm {
  /** Field names without a trailing [] or [n], in order of first occurrence. */
  order: string[];
  values: Map<string, string[]>;
}

const SIGNATURE_FIELDS = new Set(['HASH', 'SIGNATURE_SHA2_256', 'SIGNATURE_SHA3_256']);

/** Parses an urlencoded body, grouping array fields (IPN_PID[]=1&IPN_PID[]=2) the way PHP does. */
export function parseIpnForm(body: string): IpnForm {
  const order: string[] = [];
  const values = new Map<string, string[]>();
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const key = rawKey.replace(/\[\d*\]$/, '');
    let list = values.get(key);
    if (!list) {
      list = [];
      values.set(key, list);
      order.push(key);
    }
    list.push(value);
  }
  return { order, values };
}

/** The first value of a field ('' when it is absent). */
export const field = (form: IpnForm, name: string): string => form.values.get(name)?.[0] ?? '';

const lengthPrefixed = (values: readonly string[]): string =>
  values.map((v) => `${Buffer.byteLength(v, 'utf8')}${v}`).join('');

/** The HMAC source of a notification: every non-signature field, length-prefixed, in order. */
export function signatureSource(form: IpnForm): string {
  return form.order
    .filter((k) => !SIGNATURE_FIELDS.has(k))
    .map((k) => lengthPrefixed(form.values.get(k) ?? []))
    .join('');
}

export type IpnAlgorithm = 'sha256' | 'sha3-256';

const hmacHex = (algorithm: IpnAlgorithm, key: string, data: string): string =>
  crypto.createHmac(algorithm, key).update(data, 'utf8').digest('hex');

export type IpnVerification =
  { ok: true; algorithm: IpnAlgorithm } | { ok: false; reason: 'unsigned' | 'bad_signature' };

/** Checks the notification's SHA-2 (or SHA-3) signature against the secret key. */
export function verifyIpn(form: IpnForm, secretKey: string): IpnVerification {
  const sha2 = field(form, 'SIGNATURE_SHA2_256');
  const sha3 = field(form, 'SIGNATURE_SHA3_256');
  const [algorithm, received]: [IpnAlgorithm, string] = sha2
    ? ['sha256', sha2]
    : ['sha3-256', sha3];
  if (!received) return { ok: false, reason: 'unsigned' };
  const expected = Buffer.from(hmacHex(algorithm, secretKey, signatureSource(form)), 'hex');
  const given = /^[0-9a-fA-F]{64}$/.test(received) ? Buffer.from(received, 'hex') : null;
  if (!given || !crypto.timingSafeEqual(expected, given))
    return { ok: false, reason: 'bad_signature' };
  return { ok: true, algorithm };
}

/** The provider's date format: UTC YYYYMMDDHHmmss. */
export const ipnDate = (d: Date): string => d.toISOString().replace(/\D/g, '').slice(0, 14);

/** The receipt that acknowledges a notification (see the note above). */
export function ipnReceipt(
  form: IpnForm,
  secretKey: string,
  algorithm: IpnAlgorithm,
  now: Date,
): string {
  const date = ipnDate(now);
  const source = lengthPrefixed([
    field(form, 'IPN_PID'),
    field(form, 'IPN_PNAME'),
    field(form, 'IPN_DATE'),
    date,
  ]);
  return `<sig algo="${algorithm}" date="${date}">${hmacHex(algorithm, secretKey, source)}</sig>`;
}

/** Signs fields the way the provider does; for tests and local tools that play the provider. */
export function signIpnFields(
  fields: ReadonlyArray<readonly [string, string]>,
  secretKey: string,
): string {
  const body = new URLSearchParams(fields.map(([k, v]): [string, string] => [k, v]));
  const signature = hmacHex('sha256', secretKey, signatureSource(parseIpnForm(body.toString())));
  body.append('SIGNATURE_SHA2_256', signature);
  return body.toString();
}
