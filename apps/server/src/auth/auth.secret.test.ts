// The auth secret and the auth configuration: a generated secret persisted once with mode 0600,
// BETTER_AUTH_SECRET preferred, and bad auth variables stopping start-up with their name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { resolveAuthSecret } from './auth.secret.ts';

describe('resolveAuthSecret', () => {
  it('generates 32 random bytes once, keeps them in DATA_DIR/auth-secret (0600), reuses them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-secret-'));
    try {
      const first = resolveAuthSecret(undefined, dir);
      expect(Buffer.from(first, 'base64url')).toHaveLength(32);
      const file = path.join(dir, 'auth-secret');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(resolveAuthSecret(undefined, dir)).toBe(first);
      expect(resolveAuthSecret(undefined, fs.mkdtempSync(path.join(dir, 'other-')))).not.toBe(
        first,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prefers BETTER_AUTH_SECRET and writes no file then', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-secret-'));
    try {
      expect(resolveAuthSecret('x'.repeat(40), dir)).toBe('x'.repeat(40));
      expect(fs.existsSync(path.join(dir, 'auth-secret'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('auth configuration', () => {
  it('has safe defaults: no Google, the log as mail channel, limits on', () => {
    const c = loadConfig({});
    expect(c.auth.google).toBeNull();
    expect(c.auth.mail).toEqual({ smtpUrl: undefined, from: 'SealVault <no-reply@localhost>' });
    expect(c.auth.rateLimit).toEqual({ window: 60, max: 10 });
  });

  it('enables Google with both client id and secret, issuer defaulting to accounts.google.com', () => {
    const c = loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' });
    expect(c.auth.google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
    });
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id' }).auth.google).toBeNull();
  });

  it.each([
    ['SMTP_URL', 'mail.example.com'],
    ['GOOGLE_ISSUER', 'not a url'],
    ['BETTER_AUTH_SECRET', 'too-short'],
    ['AUTH_RATE_LIMIT_MAX', '0'],
  ])('stops on a bad %s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
