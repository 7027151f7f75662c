import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateEd25519, readOpenSshKey, SSH_ERRORS } from './sshKey.ts';

const dir = mkdtempSync(join(tmpdir(), 'sshkey-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let hasSshKeygen = true;
try {
  execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
} catch (err) {
  // ssh-keygen -? exits 1 after printing its usage; only a missing binary is ENOENT.
  hasSshKeygen = (err as NodeJS.ErrnoException).code !== 'ENOENT';
}

describe('SSH keys', () => {
  it('generates an Ed25519 pair whose files read back to the same public key and fingerprint', async () => {
    const key = await generateEd25519('me@laptop');
    expect(key.publicKey).toMatch(
      /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]+ me@laptop$/,
    );
    expect(key.privateKey).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END OPENSSH PRIVATE KEY-----\n$/,
    );
    expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const fromPrivate = await readOpenSshKey(key.privateKey);
    expect(fromPrivate.fingerprint).toBe(key.fingerprint);
    expect(fromPrivate.publicKey).toBe(key.publicKey.replace(/ me@laptop$/, ''));
    expect((await readOpenSshKey(key.publicKey)).fingerprint).toBe(key.fingerprint);
  });

  it.runIf(hasSshKeygen)(
    'writes files ssh-keygen reads: same public key and fingerprint',
    async () => {
      const key = await generateEd25519('test');
      const file = join(dir, 'id_ed25519');
      writeFileSync(file, key.privateKey, { mode: 0o600 });
      const pub = execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim();
      expect(pub.split(' ').slice(0, 2)).toEqual(key.publicKey.split(' ').slice(0, 2));
      const fp = execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' });
      expect(fp.split(' ')[1]).toBe(key.fingerprint);
    },
  );

  it.runIf(hasSshKeygen)(
    "reads ssh-keygen's own keys, a passphrase-protected one too",
    async () => {
      const file = join(dir, 'id_protected');
      execFileSync('ssh-keygen', [
        '-q',
        '-t',
        'ed25519',
        '-N',
        'secret pass',
        '-C',
        'c',
        '-f',
        file,
      ]);
      const key = await readOpenSshKey(readFileSync(file, 'utf8'));
      const fp = execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' });
      expect(key.fingerprint).toBe(fp.split(' ')[1]);
      expect(key.publicKey).toBe(readFileSync(`${file}.pub`, 'utf8').trim().replace(/ c$/, ''));
    },
  );

  it('refuses what is not an OpenSSH key, with a message', async () => {
    await expect(readOpenSshKey('hello')).rejects.toThrow(SSH_ERRORS.unreadable);
    await expect(readOpenSshKey('ssh-ed25519 AAAAB3NzaC1yc2E=')).rejects.toThrow(
      SSH_ERRORS.unreadable,
    );
    await expect(readOpenSshKey('-----BEGIN RSA PRIVATE KEY-----\nabc')).rejects.toThrow(
      SSH_ERRORS.pem,
    );
  });
});
