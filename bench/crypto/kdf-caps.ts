// Benchmark (issue 15, "the unlock-time freeze"): what a hostile key record costs an unlock. The
// server hands the client a vault's key slots; each password slot names its own Argon2id or
// PBKDF2 parameters, and the client derives a key for each slot it tries. Measured in Node with
// the same hash-wasm Argon2id and WebCrypto PBKDF2 the crypto Worker runs in the browser:
// - one derivation at the honest default, at the old caps and at the new caps [Note: KDF caps];
// - a whole unlock, through the crypto client, of a record with 8 password slots at the new caps
//   (refused before any derivation since ADR 0007: one password slot per vault), and of a record
//   whose one password slot is at the new caps (the worst a record can now cost).
// The old rules tried all 8 at up to the old caps: that figure is 8 times one old-cap derivation.
// Run: node --import tsx bench/crypto/kdf-caps.ts
import os from 'node:os';
import {
  asVaultId,
  createCryptoClient,
  inProcessTransport,
  KDF_LIMITS as LIMITS,
  type VaultKey,
} from '@sealvault/crypto';
import { argon2id, pbkdf2Sha256 } from '../../packages/crypto/src/primitives.ts';

const pw = new TextEncoder().encode('correct horse battery staple');
const salt = new Uint8Array(16);
const seconds = async (run: () => Promise<unknown>) => {
  const t0 = performance.now();
  await run();
  return (performance.now() - t0) / 1000;
};
const rssMiB = () => process.memoryUsage().rss / 1024 / 1024;

console.log(
  `cores=${os.cpus().length} load=${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join('/')}`,
);
const a = LIMITS.argon2id;
const rows: [string, () => Promise<unknown>][] = [
  ['Argon2id default (64 MiB, t=3, p=1)', () => argon2id(pw, salt, 64 * 1024, 3, 1)],
  [
    `Argon2id new cap (${a.mMax / 1024} MiB, t=${a.tMax}, p=1)`,
    () => argon2id(pw, salt, a.mMax, a.tMax, 1),
  ],
  ['Argon2id old cap (1024 MiB, t=10, p=1)', () => argon2id(pw, salt, 1024 * 1024, 10, 1)],
  ['PBKDF2 default (600,000)', () => pbkdf2Sha256(pw, salt, 600_000)],
  [
    `PBKDF2 new cap (${LIMITS.pbkdf2.max.toLocaleString('en')})`,
    () => pbkdf2Sha256(pw, salt, LIMITS.pbkdf2.max),
  ],
  ['PBKDF2 old cap (10,000,000)', () => pbkdf2Sha256(pw, salt, 10_000_000)],
];
const perSlot: Record<string, number> = {};
for (const [label, run] of rows) {
  const before = rssMiB();
  perSlot[label] = await seconds(run);
  console.log(
    `one derivation, ${label}: ${perSlot[label].toFixed(2)} s (RSS ${before.toFixed(0)} -> ${rssMiB().toFixed(0)} MiB)`,
  );
}
const oldCap = perSlot['Argon2id old cap (1024 MiB, t=10, p=1)']!;
console.log(
  `old rules, 8 hostile slots at the old cap: 8 x ${oldCap.toFixed(1)} s = ${(8 * oldCap).toFixed(0)} s`,
);

// A hostile record under the new rules: 8 password slots, each at the new cap with a different
// memory size (so that no two share a parameter set), none of which opens.
const client = createCryptoClient(inProcessTransport());
const vaultId = asVaultId(crypto.randomUUID());
const { key } = await client.createVault(vaultId, 'the real password', 'argon2id');
const honest = key.slots[0]!;
const hostile: VaultKey = {
  format: 'vf1',
  slots: Array.from({ length: 8 }, (_, i) => ({
    ...honest,
    id: crypto.randomUUID(),
    kdf: { alg: 'argon2id', m: a.mMax - i * 1024, t: a.tMax, p: 1 },
  })),
};
const hostileS = await seconds(() =>
  client.unlockVault(vaultId, hostile, 'a guess').catch(() => undefined),
);
console.log(
  `new rules, 8 hostile slots at the new cap: the unlock fails after ${hostileS.toFixed(3)} s (a key with more than one password slot is refused before any derivation, ADR 0007)`,
);
// The worst a key can be now: its one password slot at the new cap.
const one: VaultKey = { format: 'vf1', slots: [hostile.slots[0]!] };
const oneS = await seconds(() =>
  client.unlockVault(vaultId, one, 'a guess').catch(() => undefined),
);
console.log(
  `new rules, 1 hostile slot at the new cap: the unlock fails after ${oneS.toFixed(1)} s`,
);
const honestS = await seconds(() => client.unlockVault(vaultId, key, 'the real password'));
console.log(`an honest unlock (default parameters): ${honestS.toFixed(2)} s`);
