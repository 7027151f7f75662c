// Schema migrations, in code, run at start-up on SQLite and PostgreSQL alike. Append new entries;
// never edit one that has shipped. Names sort in the order they apply.
import type { Kysely } from 'kysely';
import type { BetterAuthOptions } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import type { Db } from './database.ts';
import { sharedLocks } from './locks.ts';
import { Migrator, type Migration } from 'kysely';
import {
  SEED_FEATURES,
  SEED_SHARE_LIMITS,
  SEED_STORAGE_MB,
  seedPlans,
} from '../plans/plans.seed.ts';
import type { Database } from './schema.ts';
import { itemsTagMigration } from '../secrets/items-tag.migration.ts';

const migrations: Record<string, Migration> = {
  '0001_subscription_plans': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('subscription_plans')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('max_vaults', 'integer', (c) => c.notNull())
        .addColumn('max_file_size_mb', 'integer', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await seedPlans(db);
    },
  },
  '0010_vaults': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vaults')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('vault_type', 'text', (c) => c.notNull())
        .addColumn('provider_type', 'text', (c) => c.notNull())
        .addColumn('key_json', 'text', (c) => c.notNull())
        .addColumn('key_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_accessed', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('vaults_user_id').on('vaults').column('user_id').execute();
    },
  },
  '0030_secret_items': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('secret_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vault_id', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('secret_items_vault_id')
        .on('secret_items')
        .column('vault_id')
        .execute();
    },
  },
  // Files (issue 6). 0040, not 0020: 0030 has shipped, and Kysely refuses a new migration that
  // sorts before one already applied. Sizes are bigint (ciphertext can pass 2 GiB; pg returns
  // int8 as a string, so readers convert with Number()).
  '0040_vault_files': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vault_files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vault_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('enc_meta', 'text', (c) => c.notNull())
        .addColumn('name_lookup', 'text', (c) => c.notNull())
        .addColumn('wrapped_key', 'text', (c) => c.notNull())
        .addColumn('ciphertext_size', 'bigint', (c) => c.notNull())
        .addColumn('checksum', 'text', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('vault_files_vault_lookup')
        .on('vault_files')
        .columns(['vault_id', 'name_lookup'])
        .unique()
        .execute();
      await db.schema
        .createTable('file_uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('vault_id', 'text', (c) => c.notNull())
        .addColumn('file_id', 'text', (c) => c.notNull())
        .addColumn('enc_meta', 'text', (c) => c.notNull())
        .addColumn('name_lookup', 'text', (c) => c.notNull())
        .addColumn('wrapped_key', 'text', (c) => c.notNull())
        .addColumn('checksum', 'text', (c) => c.notNull())
        .addColumn('upload_length', 'bigint', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('file_uploads_expires_at')
        .on('file_uploads')
        .column('expires_at')
        .execute();
      await db.schema
        .createTable('blob_deletions')
        .addColumn('blob_key', 'text', (c) => c.primaryKey())
        .addColumn('delete_after', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // Accounts (issue 3): docs/product.md §3 profiles. The user rows themselves are Better Auth's (its own
  // migrations run first, see migrateAll); a profile is ensured at sign-up and at each sign-in.
  '0050_profiles': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('profiles')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('full_name', 'text')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
        .addColumn('current_plan_id', 'text', (c) =>
          c.notNull().defaultTo('free').references('subscription_plans.id'),
        )
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('profiles_email').on('profiles').column('email').execute();
    },
  },
  // Plans and payments (issue 8): docs/product.md §3 user_subscriptions, the checkouts a notification
  // refers to, and the notifications already handled (payments/payments.service.ts).
  '0060_user_subscriptions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('user_subscriptions')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('plan_id', 'text', (c) => c.notNull().references('subscription_plans.id'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('current_period_end', 'text')
        .addColumn('pending_plan_id', 'text', (c) => c.references('subscription_plans.id'))
        .addColumn('provider_ref', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('user_subscriptions_period_end')
        .on('user_subscriptions')
        .column('current_period_end')
        .execute();
      await db.schema
        .createIndex('user_subscriptions_provider_ref')
        .on('user_subscriptions')
        .column('provider_ref')
        .execute();
      await db.schema
        .createTable('payment_checkouts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('plan_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('payment_checkouts_user_id')
        .on('payment_checkouts')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('payment_notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_ref', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('plan_id', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('payment_notifications_order')
        .on('payment_notifications')
        .columns(['order_ref', 'outcome'])
        .execute();
    },
  },
  // The content hash ([Note: content hash] in packages/protocol/src/files.ts) replaces the SHA-256
  // of the whole ciphertext as the checksum of new files (files/uploads.ts). The rows before it
  // keep theirs, so they are marked 'sha256'; new rows say 'content-hash-4m'.
  '0070_checksum_algorithm': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('vault_files')
        .addColumn('checksum_algorithm', 'text', (c) => c.notNull().defaultTo('sha256'))
        .execute();
    },
  },
  // Account hardening (issue 15, items 3 and 7; auth/attempts.ts, auth/totp-replay.ts): the shared
  // budget of password and second-factor attempts per account and per client address, and the last
  // TOTP time step each user spent.
  '0080_auth_attempts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('auth_attempts')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('totp_steps')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('last_step', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Recoverable finalisation (issue 15, item 4; files/uploads.finish.ts): who holds the claim on a
  // 'finishing' upload and since when, and the blob its bytes were moved to, so a retry or the
  // sweep can resume or cleanly fail it. 0090: 0080_* is taken by another change of issue 15.
  '0090_upload_finishing': {
    async up(db: Kysely<unknown>) {
      for (const column of ['claim_id', 'claimed_at', 'blob_key']) {
        await db.schema.alterTable('file_uploads').addColumn(column, 'text').execute();
      }
      await db.schema
        .createIndex('file_uploads_user_id')
        .on('file_uploads')
        .column('user_id')
        .execute();
    },
  },
  // A storage quota per plan (issue 15, item 1): files/uploads.service.ts refuses an upload that
  // would pass it. -1 (unlimited) until each seeded plan gets its value.
  '0091_plan_storage_quota': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('subscription_plans')
        .addColumn('max_storage_mb', 'integer', (c) => c.notNull().defaultTo(-1))
        .execute();
      for (const [id, mb] of Object.entries(SEED_STORAGE_MB)) {
        await (db as Kysely<Database>)
          .updateTable('subscription_plans')
          .set({ max_storage_mb: mb })
          .where('id', '=', id)
          .execute();
      }
    },
  },
  // Records of files a vault's storage provider holds (issue 14; [Note: provider-held files] in
  // files/files.repository.ts): the provider's reference, null for files on this server. Such a
  // row has no blob here and its blob_key is '' (SQLite cannot drop the NOT NULL without
  // rebuilding the table, and its DDL is not transactional, so a rebuild could be left half done).
  '0100_file_storage_ref': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('vault_files').addColumn('storage_ref', 'text').execute();
    },
  },
  // Where a cloud provider keeps a vault's files (issue 16): the folder's id (Google Drive) or path
  // (Dropbox) in the user's account, never a token. Null for vaults on this server or in a browser.
  '0110_vault_storage_folder': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('vaults').addColumn('storage_folder', 'text').execute();
    },
  },
  // Trials (issue 19; subscriptions/trials.service.ts, [Note: read-only after a trial] in the
  // protocol's trials.ts): the plan tried, when (set once: one trial per account), when it ends,
  // and how it ended (null while it runs).
  '0120_subscription_trials': {
    async up(db: Kysely<unknown>) {
      for (const column of [
        'trial_plan_id',
        'trial_started_at',
        'trial_ends_at',
        'trial_outcome',
      ]) {
        await db.schema.alterTable('user_subscriptions').addColumn(column, 'text').execute();
      }
    },
  },
  // What each plan's card lists beside its limits (issue 19: the feature lists come from the plans
  // table, not the web app's code), a JSON array of strings.
  '0121_plan_features': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('subscription_plans')
        .addColumn('features', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      for (const [id, features] of Object.entries(SEED_FEATURES)) {
        await (db as Kysely<Database>)
          .updateTable('subscription_plans')
          .set({ features: JSON.stringify(features) })
          .where('id', '=', id)
          .execute();
      }
    },
  },
  // The vault manifest (issue 18, ADR 0007; vaults/manifest.repository.ts): one per vault, the
  // client's MACed JSON kept as text with its version for compare-and-swap; it goes with its vault
  // (ON DELETE CASCADE; SQLite enforces it, db/database.ts turns foreign_keys on). The server is no
  // longer told when a vault is unlocked: the unlock times it kept are forgotten.
  '0130_vault_manifests': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vault_manifests')
        .addColumn('vault_id', 'text', (c) =>
          c.primaryKey().references('vaults.id').onDelete('cascade'),
        )
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('manifest', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await (db as Kysely<Database>).updateTable('vaults').set({ last_accessed: null }).execute();
    },
  },
  // One trial per e-mail address (issue 25, finding 6; subscriptions/trial-emails.ts): the keyed
  // hashes of the e-mails whose deleted accounts had a trial, and the mark on a new account of
  // such an e-mail that it gets none.
  '0140_trial_emails': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('trial_emails')
        .addColumn('email_hash', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable('user_subscriptions')
        .addColumn('earlier_trial', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  // [Note: key revision of a write] (issue 25): the key revision an upload's file key is wrapped
  // under, checked again when its record is made. Null on uploads begun before it (not checked).
  '0160_upload_key_revision': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('file_uploads').addColumn('key_revision', 'integer').execute();
    },
  },
  // Moving a vault to another provider (issue 27; vaults/moves.service.ts): the recorded move, one
  // per vault, and its verified copies on the target. Both go with their vault (ON DELETE CASCADE,
  // as vault_manifests; the vault's deletion also queues the copies staged on this server first).
  // file_uploads.mode: null for a new file, 'move' or 'move-sha256' for the copy of an existing
  // file of a vault moving here (its checksum is the content hash or, for an old record, SHA-256).
  '0170_vault_moves': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vault_moves')
        .addColumn('vault_id', 'text', (c) =>
          c.primaryKey().references('vaults.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('source_provider', 'text', (c) => c.notNull())
        .addColumn('target_provider', 'text', (c) => c.notNull())
        .addColumn('target_folder', 'text')
        .addColumn('delete_source', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('vault_moves_user_id')
        .on('vault_moves')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('vault_move_items')
        .addColumn('vault_id', 'text', (c) =>
          c.notNull().references('vault_moves.vault_id').onDelete('cascade'),
        )
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('checksum', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('vault_move_items_pk', ['vault_id', 'item_id'])
        .execute();
      await db.schema.alterTable('file_uploads').addColumn('mode', 'text').execute();
    },
  },
  // A file vault's trash (issue 28, [Note: trash] in the protocol's files.ts): when the browser
  // moved a record to the trash and when the trash purge (files/trash.purge.ts) deleted its data.
  // The index serves the purge's look-up of records trashed long enough ago.
  '0180_file_trash': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('vault_files').addColumn('trashed_at', 'text').execute();
      await db.schema.alterTable('vault_files').addColumn('purged_at', 'text').execute();
      await db.schema
        .createIndex('vault_files_trashed_at')
        .on('vault_files')
        .column('trashed_at')
        .execute();
    },
  },
  // Share links (issue 29; shares/*). The plans get their two limits (-1 until each seeded plan
  // gets its value). A link's vault must exist (no cascade: deleting a vault deletes its links
  // first, with their blobs, vaults/vaults.service.ts). The indexes serve the owner's list and
  // plan counts (user_id, created_at), the vault's deletion (vault_id), and the sweep's look-ups
  // of links past their expiry, used up, or whose data went long ago.
  '0190_share_links': {
    async up(db: Kysely<unknown>) {
      for (const column of ['max_share_links', 'max_share_mb']) {
        await db.schema
          .alterTable('subscription_plans')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(-1))
          .execute();
      }
      for (const [id, [links, mb]] of Object.entries(SEED_SHARE_LIMITS)) {
        await (db as Kysely<Database>)
          .updateTable('subscription_plans')
          .set({ max_share_links: links, max_share_mb: mb })
          .where('id', '=', id)
          .execute();
      }
      await db.schema
        .createTable('share_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('vault_id', 'text', (c) => c.references('vaults.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('access_hash', 'text', (c) => c.notNull())
        .addColumn('kdf', 'text')
        .addColumn('enc_note', 'text')
        .addColumn('enc_meta', 'text')
        .addColumn('payload', 'text')
        .addColumn('wrapped_key', 'text')
        .addColumn('ciphertext_size', 'bigint')
        .addColumn('blob_key', 'text')
        .addColumn('content_complete', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('owner_key', 'text')
        .addColumn('max_opens', 'integer')
        .addColumn('opens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_up_at', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('data_deleted_at', 'text')
        .execute();
      const index = (name: string, columns: string[]) =>
        db.schema.createIndex(name).on('share_links').columns(columns).execute();
      await index('share_links_user_created', ['user_id', 'created_at']);
      await index('share_links_vault_id', ['vault_id']);
      await index('share_links_expires_at', ['expires_at']);
      await index('share_links_used_up_at', ['used_up_at']);
      await index('share_links_data_deleted_at', ['data_deleted_at']);
    },
  },
  // A file link's content may arrive in parts (shares/shares.content.ts): the parts received so
  // far, JSON `[{ "key": blob key, "size": bytes }]` in order, until the last one completes it.
  '0200_share_content_parts': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('share_links').addColumn('content_parts', 'text').execute();
    },
  },
  // OPAQUE account passwords (RFC 9807, issue 30; auth/opaque.store.ts, docs/auth.md "OPAQUE"):
  // registration records, the server's login state between start and finish, and the single-use
  // tickets a finished login hands out. Times are milliseconds since the epoch.
  '0210_opaque': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('opaque_records')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('claim_hash', 'text', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('opaque_logins')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record_id', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('opaque_tickets')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Passkeys to sign in (issue 30, auth/passkeys/): a WebAuthn credential's public key and
  // signature counter per row. Nothing here opens a vault: vault passkey slots live in the key.
  '0220_passkeys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('passkeys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text')
        .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('passkeys_user_id').on('passkeys').column('user_id').execute();
    },
  },
  // Sign-up invitations and the admin audit log (issue 33; admin/invitations.repository.ts,
  // admin/audit.repository.ts). An invitation keeps only the SHA-256 of its token.
  '0230_invitations_admin_audit': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('used_at', 'text')
        .addColumn('used_by', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createIndex('invitations_created_at')
        .on('invitations')
        .column('created_at')
        .execute();
      await db.schema
        .createTable('admin_audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('admin_audit_log_created_at')
        .on('admin_audit_log')
        .column('created_at')
        .execute();
    },
  },
  // Issue 33, the admin console: an admin may disable an account (admin/users.service.ts,
  // [Note: disabled accounts]); null: enabled.
  '0240_profiles_disabled_at': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('profiles').addColumn('disabled_at', 'text').execute();
    },
  },
  // Issue 31: the secrets list's ETag, kept by triggers (secrets/items-tag.migration.ts).
  '0250_vaults_items_tag': itemsTagMigration,
  // Issue 31: a vault's items in the list's order straight from the index, with no sort
  // ([Note: secrets list as SQLite JSON] in secrets.repository.ts). It answers every lookup the
  // vault_id index answered, which goes.
  '0260_secret_items_vault_order': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('secret_items_vault_order')
        .on('secret_items')
        .columns(['vault_id', 'created_at', 'id'])
        .execute();
      await db.schema.dropIndex('secret_items_vault_id').execute();
    },
  },
};

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : 'see the database log';
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

/**
 * Every migration: Better Auth's tables first (its own planner, run in code: its CLI does not work
 * on Node 20, see stack-notes.md), then ours. Used at start-up (server.ts) and by the test harness.
 */
/**
 * Better Auth's migrations, then ours. Under a lock [Note: shared locks in locks.ts]: instances
 * starting together on one PostgreSQL database migrate one after the other, and the later ones
 * find nothing left to do (Better Auth's step has no lock of its own).
 */
export async function migrateAll(db: Db, auth: { options: BetterAuthOptions }): Promise<void> {
  const locks = sharedLocks(db);
  const held = await locks.lock('sealvault:migrate');
  try {
    const { runMigrations } = await getMigrations(auth.options);
    await runMigrations();
    await migrateToLatest(db.kysely);
  } finally {
    await held.release();
    await locks.close();
  }
}
