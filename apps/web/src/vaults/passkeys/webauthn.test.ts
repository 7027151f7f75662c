// @vitest-environment happy-dom
// The WebAuthn ceremonies of vault passkeys (issue 30), against a stubbed navigator.credentials:
// PRF detection, create() with the PRF extension and its get() follow-up, the unlock assertion
// with a salt per credential, and the texts of what goes wrong.
import { afterEach, expect, it, vi } from 'vitest';
import {
  assertVaultPasskey,
  createVaultPasskey,
  PasskeyError,
  passkeyTexts,
  prfSupported,
  toBase64Url,
} from './webauthn.ts';

const rawId = Uint8Array.from({ length: 16 }, (_, i) => i);
const id = toBase64Url(rawId);
const output = () => new Uint8Array(32).fill(7).buffer;
const credential = (prf: AuthenticationExtensionsPRFOutputs | undefined) => ({
  rawId: rawId.buffer,
  getClientExtensionResults: () => (prf ? { prf } : {}),
});

function stub(opts: { caps?: Record<string, boolean> | null; create?: unknown; get?: unknown }) {
  const create = vi.fn().mockResolvedValue(opts.create);
  const get = vi.fn().mockResolvedValue(opts.get);
  vi.stubGlobal(
    'PublicKeyCredential',
    opts.caps === null
      ? class {}
      : { getClientCapabilities: vi.fn().mockResolvedValue(opts.caps ?? {}) },
  );
  vi.stubGlobal('navigator', { credentials: { create, get } });
  return { create, get };
}

afterEach(() => vi.unstubAllGlobals());

it('detects PRF from getClientCapabilities, and says no without it', async () => {
  stub({ caps: { 'extension:prf': true } });
  expect(await prfSupported()).toBe(true);
  stub({ caps: { 'extension:prf': false } });
  expect(await prfSupported()).toBe(false);
  stub({ caps: null }); // no getClientCapabilities at all
  expect(await prfSupported()).toBe(false);
});

it('creates a resident, user-verified passkey with PRF and returns its output', async () => {
  const { create, get } = stub({ create: credential({ results: { first: output() } }) });
  const salt = new Uint8Array(32).fill(1);
  const made = await createVaultPasskey({ salt, userName: 'ana@example.com', exclude: [id] });
  expect(made.credentialId).toBe(id);
  expect([...made.prf]).toEqual(new Array(32).fill(7));
  expect(get).not.toHaveBeenCalled();
  const { publicKey } = create.mock.calls[0]![0] as CredentialCreationOptions;
  expect(publicKey).toMatchObject({
    rp: { id: location.hostname, name: 'SealVault' },
    user: { name: 'ana@example.com' },
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    pubKeyCredParams: [
      { type: 'public-key', alg: -7 },
      { type: 'public-key', alg: -257 },
    ],
  });
  expect(publicKey!.extensions?.prf?.eval?.first).toEqual(salt);
  expect(
    publicKey!.excludeCredentials?.map((c) => [...new Uint8Array(c.id as ArrayBuffer)]),
  ).toEqual([[...rawId]]);
});

it('asks for the PRF output with get() when create() only says it is enabled', async () => {
  const { get } = stub({
    create: credential({ enabled: true }),
    get: credential({ results: { first: output() } }),
  });
  const made = await createVaultPasskey({ salt: new Uint8Array(32), userName: 'a', exclude: [] });
  expect(made.credentialId).toBe(id);
  const { publicKey } = get.mock.calls[0]![0] as CredentialRequestOptions;
  expect(publicKey).toMatchObject({ userVerification: 'required' });
  expect(Object.keys(publicKey!.extensions?.prf?.evalByCredential ?? {})).toEqual([id]);
});

it('adds nothing for a passkey without PRF, and names a dismissed prompt', async () => {
  stub({ create: credential({ enabled: false }) });
  await expect(
    createVaultPasskey({ salt: new Uint8Array(32), userName: 'a', exclude: [] }),
  ).rejects.toEqual(new PasskeyError(passkeyTexts.notPrf));
  const { create } = stub({});
  create.mockRejectedValue(new DOMException('no', 'NotAllowedError'));
  await expect(
    createVaultPasskey({ salt: new Uint8Array(32), userName: 'a', exclude: [] }),
  ).rejects.toEqual(new PasskeyError(passkeyTexts.cancelled));
  create.mockRejectedValue(new DOMException('dup', 'InvalidStateError'));
  await expect(
    createVaultPasskey({ salt: new Uint8Array(32), userName: 'a', exclude: [] }),
  ).rejects.toEqual(new PasskeyError(passkeyTexts.already));
});

it('unlocks over every passkey with its own salt and answers the credential used', async () => {
  const { get } = stub({ get: credential({ results: { first: output() } }) });
  const other = toBase64Url(new Uint8Array(16).fill(9));
  const used = await assertVaultPasskey([
    { credentialId: other, salt: new Uint8Array(32).fill(2) },
    { credentialId: id, salt: new Uint8Array(32).fill(3) },
  ]);
  expect(used.credentialId).toBe(id);
  expect(used.prf).toHaveLength(32);
  const { publicKey } = get.mock.calls[0]![0] as CredentialRequestOptions;
  expect(publicKey!.allowCredentials).toHaveLength(2);
  const byCred = publicKey!.extensions!.prf!.evalByCredential!;
  expect(byCred[other]!.first).toEqual(new Uint8Array(32).fill(2));
  expect(byCred[id]!.first).toEqual(new Uint8Array(32).fill(3));
  // No PRF result: the passkey could not be used.
  stub({ get: credential(undefined) });
  await expect(
    assertVaultPasskey([{ credentialId: id, salt: new Uint8Array(32) }]),
  ).rejects.toEqual(new PasskeyError(passkeyTexts.failed));
  // No passkey slot (the server dropped them): no ceremony at all.
  const { get: never } = stub({});
  await expect(assertVaultPasskey([])).rejects.toEqual(new PasskeyError(passkeyTexts.noSlots));
  expect(never).not.toHaveBeenCalled();
});
