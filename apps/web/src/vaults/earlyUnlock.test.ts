// What the unlock starts early and leaves behind (earlyUnlock.ts): the records opened under the
// new session go to the right vault kind, the vault's record only when the unlock keeps it, a
// failed unlock drops both kinds, and the vault queries are not read again beside the first list.
import { QueryObserver } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import type { Vault } from '@sealvault/protocol';

const files = vi.hoisted(() => ({ openEarly: vi.fn(), dropOpened: vi.fn() }));
vi.mock('../files/earlyOpen.ts', () => files);
const secrets = vi.hoisted(() => ({ openSecretsEarly: vi.fn(), dropOpenedSecrets: vi.fn() }));
vi.mock('../secrets/earlyOpen.ts', () => secrets);
const prefetch = vi.hoisted(() => ({
  prefetchSecretRecords: vi.fn(),
  prefetchSegmentsFor: vi.fn(),
}));
vi.mock('../secrets/useSecrets.ts', () => prefetch);
vi.mock('../files/deviceCache.ts', () => ({ prefetchFileRecords: vi.fn() }));
const unlockVault = vi.hoisted(() => vi.fn());
vi.mock('../crypto/client.ts', () => ({
  warmUpCrypto: vi.fn(),
  cryptoClient: () => ({ unlockVault }),
}));
const manifest = vi.hoisted(() => Promise.resolve({ kind: 'none' as const }));
vi.mock('./manifest/vaultManifest.ts', () => ({ fetchManifestAnswer: () => manifest }));

const { afterUnlock, beginUnlock } = await import('./earlyUnlock.ts');
const { createQueryClient } = await import('../queryClient.ts');

const S = 's'.repeat(32) as SessionId;
const committed = { kind: 'password', commit: 'c' };
const vaultOf = (vault_type: 'files' | 'secrets', slot: object = committed): Vault =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    vault_type,
    provider_type: 'dropbox',
    key: { slots: [slot] },
  }) as unknown as Vault;

beforeEach(() => {
  vi.clearAllMocks();
  unlockVault.mockResolvedValue(S);
});

describe('the early unlock', () => {
  it("opens a secrets vault's items under the new session, with the record the unlock read", async () => {
    const vault = vaultOf('secrets');
    const current = { ...vault, name: 'as read now' };
    const early = beginUnlock(vault, 'pw');
    expect(prefetch.prefetchSegmentsFor).toHaveBeenCalledWith(vault, manifest);
    // The key derivation starts now, with the page's copy of the key, for unlockChecked to check.
    expect(unlockVault).toHaveBeenCalledWith(vault.id, vault.key, 'pw', { allowLegacy: false });
    const options = early.options(current);
    expect(options.manifest).toBe(manifest);
    expect(options.derived?.key).toBe(vault.key);
    expect(await options.derived?.session).toBe(S);
    options.onSession!(S);
    expect(secrets.openSecretsEarly).toHaveBeenCalledWith(vault.id, S, current);
    expect(files.openEarly).not.toHaveBeenCalled();
  });

  it('hands on no record the unlock will rewrite (a slot from before commitments)', () => {
    const vault = vaultOf('secrets', { kind: 'password' });
    const options = beginUnlock(vault, 'pw').options(vault);
    expect(unlockVault).not.toHaveBeenCalled(); // such a slot opens only once the manifest is known
    expect(options.derived).toBeUndefined();
    options.onSession!(S);
    expect(secrets.openSecretsEarly).toHaveBeenCalledWith(vault.id, S, undefined);
  });

  it("opens a file vault's records, and drops what either kind opened when the unlock fails", () => {
    const vault = vaultOf('files');
    const early = beginUnlock(vault, 'pw');
    expect(prefetch.prefetchSegmentsFor).not.toHaveBeenCalled();
    early.options(vault).onSession!(S);
    expect(files.openEarly).toHaveBeenCalledWith(vault.id, S, vault); // its record goes with it
    early.failed();
    expect(files.dropOpened).toHaveBeenCalledWith(vault.id);
    expect(secrets.dropOpenedSecrets).toHaveBeenCalledWith(vault.id);
  });

  it('gives the page the record the unlock used, without reading the vault again', async () => {
    const qc = createQueryClient(); // the app's, with its staleTime
    const vault = vaultOf('secrets');
    const read = vi.fn(() => Promise.resolve(vault));
    const observer = new QueryObserver(qc, { queryKey: ['vaults', vault.id], queryFn: read });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(qc.getQueryData(['vaults', vault.id])).toBeDefined());
    const current = { ...vault, key_revision: 7 };
    afterUnlock(qc, current);
    await new Promise((r) => setTimeout(r, 10));
    expect(read).toHaveBeenCalledTimes(1);
    expect(qc.getQueryData(['vaults', vault.id])).toEqual(current);
    // A component mounting with the vault's first screen takes it as it is.
    const again = new QueryObserver(qc, { queryKey: ['vaults', vault.id], queryFn: read });
    const stopAgain = again.subscribe(() => undefined);
    await new Promise((r) => setTimeout(r, 10));
    expect(read).toHaveBeenCalledTimes(1);
    stopAgain();
    stop();
  });

  it('reads the vault again at once when the unlock re-sealed its slot (a new key)', async () => {
    const qc = createQueryClient(); // the app's, with its staleTime
    const vault = vaultOf('secrets', { kind: 'password' });
    const read = vi.fn(() => Promise.resolve(vault));
    const observer = new QueryObserver(qc, { queryKey: ['vaults', vault.id], queryFn: read });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(qc.getQueryData(['vaults', vault.id])).toBeDefined());
    afterUnlock(qc, vault);
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(2));
    stop();
  });
});
