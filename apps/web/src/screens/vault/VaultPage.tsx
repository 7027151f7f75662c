// /vault/:vaultId (docs/product.md §2 "Vault page"): unlock, then the secrets manager for a secrets vault or
// the file browser for a file vault.
import { FileBrowser } from '../../files/FileBrowser.tsx';
import { SecretsManager } from '../../secrets/SecretsManager.tsx';
import { VaultPage as VaultFrame } from '../../vaults/VaultPage.tsx';

export function VaultPage() {
  return (
    <VaultFrame>
      {(vault) =>
        vault.vault_type === 'secrets' ? (
          <SecretsManager vaultId={vault.id} />
        ) : (
          <FileBrowser vault={vault} />
        )
      }
    </VaultFrame>
  );
}
