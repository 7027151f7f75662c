// Import and export of a secrets vault (issue 20): the vault page's entry point to the transfer
// library in this folder. Being built; renders nothing until it is.
import type { Secret } from '../model.ts';

export function TransferMenu(_props: { vaultId: string; secrets: readonly Secret[] }) {
  return null;
}
