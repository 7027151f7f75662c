import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readVersion, serverVersion } from './version.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A directory laid out as the repository's root: package.json, and .git if asked. */
function root(packageJson: string | null, git = false): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-version-'));
  dirs.push(dir);
  if (packageJson !== null) fs.writeFileSync(path.join(dir, 'package.json'), packageJson);
  if (git) fs.mkdirSync(path.join(dir, '.git'));
  return dir;
}

const pkg = JSON.stringify({ name: 'sealvault', version: '1.4.2' });
const noGit = () => {
  throw new Error('git must not be asked');
};

describe('readVersion', () => {
  it('takes the version from package.json and the commit from GIT_COMMIT (the image)', () => {
    expect(
      readVersion({ env: { GIT_COMMIT: ' 0a1b2c3 ' }, root: root(pkg, true), git: noGit }),
    ).toEqual({
      version: '1.4.2',
      commit: '0a1b2c3',
    });
  });

  it('asks git in a checkout when GIT_COMMIT is unset or not a short token', () => {
    for (const GIT_COMMIT of [undefined, '', 'not a commit', 'x'.repeat(65)]) {
      const asked: string[] = [];
      const dir = root(pkg, true);
      const v = readVersion({
        env: { GIT_COMMIT },
        root: dir,
        git: (r) => {
          asked.push(r);
          return 'b1b9041\n';
        },
      });
      expect(v, GIT_COMMIT).toEqual({ version: '1.4.2', commit: 'b1b9041' });
      expect(asked).toEqual([dir]);
    }
  });

  it('says "unknown" for whatever it cannot read, and never throws', () => {
    // No .git: git is not asked.
    expect(readVersion({ env: {}, root: root(pkg), git: noGit })).toEqual({
      version: '1.4.2',
      commit: 'unknown',
    });
    // git fails, or answers something that is not a commit.
    expect(readVersion({ env: {}, root: root(pkg, true), git: noGit }).commit).toBe('unknown');
    expect(
      readVersion({ env: {}, root: root(pkg, true), git: () => 'fatal: not a git repository' })
        .commit,
    ).toBe('unknown');
    // No package.json, one that is not JSON, one without a version or with a strange one.
    for (const p of [null, '{', '{"name":"x"}', '{"version":"1.0.0\\nforged log line"}']) {
      expect(readVersion({ env: {}, root: root(p), git: noGit }), String(p)).toEqual({
        version: 'unknown',
        commit: 'unknown',
      });
    }
  });

  it('reads this repository: the root package.json version and a commit or "unknown"', () => {
    const repoPkg = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
    ) as { version: string };
    const v = serverVersion();
    expect(v.version).toBe(repoPkg.version);
    expect(v.commit).toMatch(/^[A-Za-z0-9._+-]{1,64}$/);
    expect(serverVersion()).toBe(v); // read once
  });
});
