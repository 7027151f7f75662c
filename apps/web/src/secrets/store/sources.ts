// Where a secrets vault's items are read from and written to (ADR 0008): our server for a vault on
// "SealVault storage", the segment log in its provider for any other (segmentLog.ts). The list,
// the form, delete and import talk to a SecretsSource only; both check what they read against
// the vault's manifest and follow every change with its next version.
import { useSyncExternalStore } from 'react';
import {
  secretsApi,
  SecretConflictError,
  vaultsApi,
  type NewSecret,
  type Vault,
  type SecretRecord,
} from '@sealvault/protocol';
import { providerFor, providerTypeOf } from '../../storage/providers.ts';
import { holderName } from '../../vaults/providers.tsx';
import { sessionOf } from '../../vaults/sessionContext.tsx';
import { withCurrentKey } from '../../vaults/manifest/keyRevision.ts';
import type { Problem } from '../../vaults/manifest/problems.ts';
import {
  checkAgainstManifest,
  commitSecret,
  manifests,
  secretDigest,
} from '../../vaults/manifest/vaultManifest.ts';
import type { SegmentProblem } from '../segments/fold.ts';
import type { SegmentRecord } from '../segments/segment.ts';
import { finishMove, moveTexts, moveToProvider } from './move.ts';
import { compactLog, LogConflictError, readLog, writeLog, type LogDeps } from './segmentLog.ts';
import { msg } from '../../i18n/i18n.ts';

export interface Loaded {
  /** The encrypted records to decrypt: only what the manifest vouches for is shown. */
  records: SecretRecord[];
  problems: Problem[];
  /** Who returned the records, for the problems' texts ('the server', 'Dropbox', ...). */
  holder: string;
}

export interface SecretsSource {
  /** `vault`: the vault's record as just read (followMove), so it is not read again. */
  load(vault?: Vault): Promise<Loaded>;
  /** A new item (`data` encrypted at revision 1). */
  create(id: string, data: string): Promise<void>;
  /** `data` encrypted at `secret.revision + 1`; SecretConflictError if it changed elsewhere. */
  update(secret: Pick<SecretRecord, 'id' | 'revision' | 'created_at'>, data: string): Promise<void>;
  remove(secret: Pick<SecretRecord, 'id' | 'revision'>): Promise<void>;
}

const CONFLICT = msg(
  'This secret was changed in another tab or device. Its newer version is shown.',
);

/** Our server keeps the items (docs/product.md §4; ADR 0007 for the manifest). */
function serverSource(vaultId: string): SecretsSource {
  const session = () => sessionOf(vaultId);
  return {
    async load(vault) {
      const records = (await secretsApi.list(vaultId)).secrets;
      const problems = await checkAgainstManifest(
        vaultId,
        session(),
        { secrets: records },
        undefined,
        vault,
      );
      return { records, problems, holder: 'the server' };
    },
    async create(id, data) {
      // [Note: key revision of a write] in vaults/manifest/keyRevision.ts.
      await withCurrentKey(vaultId, (key_revision) =>
        secretsApi.create(vaultId, { id, revision: 1, data, key_revision }),
      );
      await commitSecret(vaultId, session(), id, { id, revision: 1, data });
    },
    async update(secret, data) {
      await withCurrentKey(vaultId, (key_revision) =>
        secretsApi.update(vaultId, secret.id, {
          expected_revision: secret.revision,
          data,
          key_revision,
        }),
      );
      const revision = secret.revision + 1;
      await commitSecret(vaultId, session(), secret.id, { id: secret.id, revision, data });
    },
    async remove(secret) {
      await secretsApi.remove(vaultId, secret.id);
      await commitSecret(vaultId, session(), secret.id, null);
    },
  };
}

/** The log's collaborators for the vault's provider and this page's session of the vault. */
export function logDeps(vaultId: string): LogDeps {
  const type = providerTypeOf(vaultId) ?? 'server';
  return {
    vaultId,
    blobs: providerFor(type),
    providerType: type,
    manifests: {
      load: () => manifests.load(sessionOf(vaultId), vaultId),
      commit: (change) => manifests.commit(sessionOf(vaultId), vaultId, change),
    },
    digestOf: secretDigest,
  };
}

/** "Dropbox", "Google Drive", "OneDrive", or "this browser", as the texts name a holder. */
const holderOf = (vaultId: string) => holderName(providerTypeOf(vaultId) ?? 'server');

const asProblem = (p: SegmentProblem): Problem =>
  'segment' in p && !('id' in p)
    ? {
        kind: 'segment',
        problem: p.kind,
        segment: p.segment,
      }
    : ({ ...p, item: 'secret' } as Problem);

const toRecord = (r: {
  id: string;
  revision: number;
  data: string;
  created_at: string;
  updated_at: string;
}): SecretRecord => ({
  id: r.id,
  revision: r.revision,
  data: r.data,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

// Vaults whose move this browser has seen finished (the server's copies deleted), so a page load
// does not ask the server to delete them again. Only vault ids: nothing secret is kept.
const FINISHED_KEY = 'sealvault.secrets-moved';
const finished = {
  ids(): Set<string> {
    try {
      const raw: unknown = JSON.parse(localStorage.getItem(FINISHED_KEY) ?? '[]');
      return new Set(Array.isArray(raw) ? raw.filter((v) => typeof v === 'string') : []);
    } catch {
      return new Set();
    }
  },
  has(vaultId: string): boolean {
    return this.ids().has(vaultId);
  },
  add(vaultId: string): void {
    try {
      localStorage.setItem(FINISHED_KEY, JSON.stringify([...this.ids().add(vaultId)]));
    } catch {
      // Storage refused (private mode): the next page load asks the server again, harmlessly.
    }
  },
};

// A move in progress, by vault id, for the one sentence the list shows (SecretsManager).
const moving = new Map<string, string>();
const listeners = new Set<() => void>();
const setMoving = (vaultId: string, text: string | null) => {
  if (text === null) moving.delete(vaultId);
  else moving.set(vaultId, text);
  listeners.forEach((l) => l());
};

/** The sentence to show while the vault's items move to its provider, or null. */
export function useMoveNotice(vaultId: string): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => moving.get(vaultId) ?? null,
  );
}

/** The segment log in the vault's provider (ADR 0008). */
function providerSource(vaultId: string): SecretsSource {
  const deps = () => logDeps(vaultId);
  const now = () => new Date().toISOString();

  /** The item's record in the log now, to show after a conflict. */
  async function current(id: string): Promise<SecretRecord | null> {
    const read = await readLog(deps());
    const found = read?.items.find((i) => i.id === id);
    return found ? toRecord(found) : null;
  }

  async function write(records: SegmentRecord[], id: string): Promise<void> {
    try {
      await writeLog(deps(), records);
    } catch (err) {
      if (!(err instanceof LogConflictError)) throw err;
      const newer = await current(id);
      if (!newer)
        throw new Error(msg('This secret was deleted in another tab or device.'), { cause: err });
      throw new SecretConflictError(CONFLICT, newer);
    }
  }

  return {
    async load(known) {
      const d = deps();
      let read = await readLog(d);
      const movesNow = read === null; // the move changes the vault's record: read anew
      if (read === null) {
        const vault = (await vaultsApi.get(vaultId)).vault;
        const provider = providerFor(vault.provider_type);
        const name = holderOf(vaultId);
        setMoving(vaultId, moveTexts.moving(name === 'this browser' ? 'this browser' : name));
        try {
          const moved = await moveToProvider({
            ...d,
            vault,
            providerName: name,
            ...(provider.makeFolder ? { makeFolder: (n) => provider.makeFolder!(n) } : {}),
            check: (records) =>
              checkAgainstManifest(vaultId, sessionOf(vaultId), { secrets: records }),
          });
          if (moved.kind === 'refused')
            return { records: moved.records, problems: moved.problems, holder: 'the server' };
        } finally {
          setMoving(vaultId, null);
        }
        finished.add(vaultId);
        read = await readLog(d);
        if (read === null) throw new Error(moveTexts.unverified(name));
      } else if (!finished.has(vaultId)) {
        const vault = known ?? (await vaultsApi.get(vaultId)).vault;
        await finishMove(vault, read.manifest.vault.storage_folder);
        finished.add(vaultId);
      }
      // A "This browser" vault opened in another browser: none of its segments are here.
      const dropped = read.problems.filter((p) => p.kind === 'dropped').length;
      if (holderOf(vaultId) === 'this browser' && dropped > 0 && dropped === read.pins.length)
        throw new Error(moveTexts.elsewhere);
      const fields = await checkAgainstManifest(
        vaultId,
        sessionOf(vaultId),
        {},
        read.manifest,
        movesNow ? undefined : known,
      );
      // Best effort, after the read it plans from: a failure leaves the log as it is.
      const done = read;
      void compactLog(d, done).catch(() => undefined);
      return {
        records: done.items.map(toRecord),
        problems: [...fields, ...done.problems.map(asProblem)],
        holder: holderOf(vaultId),
      };
    },
    create: (id, data) =>
      write([{ id, revision: 1, data, created_at: now(), updated_at: now() }], id),
    update: (secret, data) =>
      write(
        [
          {
            id: secret.id,
            revision: secret.revision + 1,
            data,
            created_at: new Date(secret.created_at).toISOString(),
            updated_at: now(),
          },
        ],
        secret.id,
      ),
    remove: async (secret) => {
      try {
        await writeLog(deps(), [{ id: secret.id, revision: secret.revision, deleted: true }]);
      } catch (err) {
        if (err instanceof LogConflictError) throw new Error(CONFLICT, { cause: err });
        throw err;
      }
    },
  };
}

/** Whether the vault keeps its items in its provider rather than on our server. */
export const inProvider = (vaultId: string): boolean =>
  (providerTypeOf(vaultId) ?? 'server') !== 'server';

/** The source of a vault whose record this page has loaded (registerVaultStorage). */
export function sourceFor(vaultId: string): SecretsSource {
  return inProvider(vaultId) ? providerSource(vaultId) : serverSource(vaultId);
}

/** An import into the vault's provider: one segment of new items at revision 1. */
export async function importIntoProvider(vaultId: string, secrets: NewSecret[]): Promise<number> {
  const at = new Date().toISOString();
  await writeLog(
    logDeps(vaultId),
    secrets.map((s) => ({ id: s.id, revision: 1, data: s.data, created_at: at, updated_at: at })),
  );
  return secrets.length;
}
