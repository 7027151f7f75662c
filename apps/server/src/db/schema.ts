// The database schema as Kysely sees it. One interface per table; the migrations in
// migrations.ts create them on SQLite and PostgreSQL alike. Dates are ISO-8601 text and booleans
// are 0/1 integers on both, so rows read the same whichever database is behind them.

export interface SubscriptionPlansTable {
  id: string;
  name: string;
  description: string;
  /** Price in cents; the spec's price_monthly is this / 100 (integers avoid float rounding). */
  price_cents: number;
  max_vaults: number;
  max_file_size_mb: number;
  is_active: number;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface VaultsTable {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  vault_type: string;
  provider_type: string;
  /** The vf1 key slots as JSON (protocol's VaultKey): wrapped keys the server cannot open. */
  key_json: string;
  /** Bumped on every key change; password changes compare-and-swap on it. */
  key_revision: number;
  is_hidden: number;
  last_accessed: string | null;
  created_at: string;
  updated_at: string;
}

export interface SecretItemsTable {
  id: string;
  vault_id: string;
  /** The vf1 item: nonce | AES-256-GCM ciphertext, base64. Opaque to the server. */
  data: string;
  /** Bound into the item's AAD by the client; updates compare-and-swap on it. */
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface Database {
  secret_items: SecretItemsTable;
  vaults: VaultsTable;
  subscription_plans: SubscriptionPlansTable;
}
