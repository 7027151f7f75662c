// Reading the secret out of an otpauth:// URI (Key Uri Format), so it can be typed in by hand
// when the QR code cannot be scanned, and grouping it in fours for legibility.

export function totpSecretFromUri(uri: string): string {
  try {
    return new URL(uri).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
}

export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
