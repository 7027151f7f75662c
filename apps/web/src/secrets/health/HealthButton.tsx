// Vault health (issue 20): weak, reused and old passwords across the unlocked vault. Being built;
// renders nothing until it is.
import type { Secret } from '../model.ts';

export function HealthButton(_props: { vaultId: string; secrets: readonly Secret[] }) {
  return null;
}
