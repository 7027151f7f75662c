// The switch of a vault's move (engine.ts, step 3): the vault's next manifest, naming the new
// provider and folder, signed in the Worker and stored with the vault's new provider in one
// server transaction, again on the newest manifest when another write landed first.
import {
  ManifestConflictError,
  manifestSchema,
  movesApi,
  type ProviderType,
  type SecretRecord,
  type Vault,
} from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { canonical, type ManifestRecord } from '../manifest/manifestCore.ts';
import type { ManifestEntries } from '../manifest/problems.ts';
import { manifests } from '../manifest/vaultManifest.ts';
import { sessionOf } from '../sessionContext.tsx';
import { MoveError, moveTexts } from './moveErrors.ts';

const entriesOf = ({ format: _f, version: _v, prev: _p, mac: _m, ...rest }: ManifestRecord) => rest;
export const withoutSegments = ({ segments: _s, ...rest }: ManifestEntries): ManifestEntries =>
  rest;

/** The switch: the next manifest naming the target, stored with the vault's new provider. */
export async function switchVault(
  vault: Vault,
  target: ProviderType,
  folder: string | null,
  change: (m: ManifestEntries) => ManifestEntries,
  secrets?: SecretRecord[],
) {
  const session = sessionOf(vault.id);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const current = await manifests.load(session, vault.id);
    if (!current) throw new MoveError(moveTexts.noManifest);
    const { version } = current.manifest;
    const entries = entriesOf(current.manifest);
    const next = change({
      ...entries,
      vault: { ...entries.vault, provider_type: target, storage_folder: folder ?? '' },
    });
    const signed: ManifestRecord = await cryptoClient().signManifest(session, {
      ...canonical(next),
      format: 'vf1-manifest',
      version: version + 1,
      prev: current.hash,
    });
    try {
      const answer = await movesApi.switch(vault.id, {
        expected_version: version,
        manifest: manifestSchema.parse(signed),
        ...(secrets ? { secrets } : {}),
      });
      await manifests.accept(session, vault.id, answer.manifest);
      return answer;
    } catch (err) {
      if (err instanceof ManifestConflictError) continue; // another write landed: again on it
      throw err;
    }
  }
  throw new MoveError(moveTexts.keptChanging);
}
