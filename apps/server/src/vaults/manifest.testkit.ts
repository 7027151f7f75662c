// Manifests for server tests: structurally valid (manifestSchema), with made-up digests and MAC,
// since the server checks only the structure (it has no keys to check a MAC with).
import { createHash } from 'node:crypto';
import type { Manifest } from '@sealvault/protocol';

const hex = (seed: string, digits: number) =>
  createHash('sha256').update(seed).digest('hex').slice(0, digits);

/** Version `version` of a manifest; `prev` is '' for version 1 and a 64-hex hash after it. */
export function testManifest(version: number, over: Partial<Manifest> = {}): Manifest {
  return {
    format: 'vf1-manifest',
    version,
    prev: version === 1 ? '' : hex(`prev ${version}`, 64),
    vault: {
      name: 'Tax records',
      description: 'Scans for 2026',
      vault_type: 'files',
      provider_type: 'server',
      storage_folder: '',
    },
    slots: [hex('slot', 64)],
    files: [],
    secrets: [],
    mac: hex(`mac ${version}`, 64),
    ...over,
  };
}
