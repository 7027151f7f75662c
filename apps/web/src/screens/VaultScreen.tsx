// /vault/:vaultId (docs/product.md §2 "Vault page"): the vault frame (unlock, header, menu) around
// the secrets manager for a secrets vault or the file browser for a file vault.
import { FileBrowser } from '../files/FileBrowser.tsx';
import { SecretsManager } from '../secrets/SecretsManager.tsx';
import { VaultFrame } from '../vaults/VaultFrame.tsx';

export function VaultScreen() {
  return (
    <VaultFrame>
      {(vault) =>
        vault.vault_type === 'secrets' ? (
          <SecretsManager vault={vault} />
        ) : (
          <FileBrowser vault={vault} />
        )
      }
    </VaultFrame>
  );
}
