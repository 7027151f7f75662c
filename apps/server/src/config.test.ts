import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** Well-formed for the configuration (its check is the shape; start-up checks the rest). */
const TEST_OPAQUE_SERVER_SETUP = 'A'.repeat(171);

const BETTER_AUTH_SECRET = 'a-secret-of-at-least-32-characters-long';

describe('loadConfig', () => {
  it('defaults to port 3000, ./data and an SQLite file inside it', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe(path.resolve('data'));
    expect(c.database).toEqual({ kind: 'sqlite', file: path.resolve('data', 'vault.db') });
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('switches to PostgreSQL when DATABASE_URL is a postgres URL', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
      BETTER_AUTH_SECRET,
      OPAQUE_SERVER_SETUP: TEST_OPAQUE_SERVER_SETUP,
    });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u@127.0.0.1:5432/db' });
  });

  it('refuses PostgreSQL without OPAQUE_SERVER_SETUP, naming it (instances share the records)', () => {
    const load = () =>
      loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db', BETTER_AUTH_SECRET });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/OPAQUE_SERVER_SETUP must be set when DATABASE_URL is set/);
  });

  it('refuses PostgreSQL without BETTER_AUTH_SECRET, naming it (instances share the database)', () => {
    const load = () => loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/BETTER_AUTH_SECRET must be set when DATABASE_URL is set/);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
  ])('stops with a message naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('keeps blobs in DATA_DIR/blobs by default', () => {
    expect(loadConfig({ DATA_DIR: '/srv/vault' }).blobs).toEqual({
      kind: 'fs',
      dir: path.resolve('/srv/vault', 'blobs'),
    });
  });

  it('takes an S3 bucket with BLOB_STORE=s3, path-style only when asked', () => {
    expect(loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'vault-blobs' }).blobs).toEqual({
      kind: 's3',
      bucket: 'vault-blobs',
      forcePathStyle: false,
    });
    const c = loadConfig({
      BLOB_STORE: 's3',
      S3_BUCKET: 'vault-blobs',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(c.blobs).toEqual({ kind: 's3', bucket: 'vault-blobs', forcePathStyle: true });
  });

  it('stops when BLOB_STORE=s3 has no S3_BUCKET, naming it', () => {
    const load = () => loadConfig({ BLOB_STORE: 's3' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/S3_BUCKET: required when BLOB_STORE=s3/);
  });

  it.each([
    ['BLOB_STORE', 'gcs'],
    ['S3_BUCKET', 'a/b'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
  ])('stops with a message naming %s when it is %s', (name, value) => {
    const load = () => loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'vault-blobs', [name]: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(new RegExp(name));
  });

  it('takes METRICS_TOKEN as the metrics Bearer token; unset, there are no metrics', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    const token = 'f'.repeat(16);
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(loadConfig({ METRICS_TOKEN: 'abc.DEF-123_~+/xyz==' }).metricsToken).toBe(
      'abc.DEF-123_~+/xyz==',
    );
  });

  it.each([
    ['too short', 'f'.repeat(15), /METRICS_TOKEN: must be at least 16 characters/],
    ['with a space', 'a token with spaces', /METRICS_TOKEN: must be letters, digits/],
    ['with a quote', 'abcdefghijklmnop"', /METRICS_TOKEN: must be letters, digits/],
  ])('stops when METRICS_TOKEN is %s, naming it', (_what, value, message) => {
    const load = () => loadConfig({ METRICS_TOKEN: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it('keeps only the origin of PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://vault.example.com/some/path' }).publicUrl).toBe(
      'https://vault.example.com',
    );
  });
});

describe('sign-up policy and plans for one instance (issue 33)', () => {
  it('defaults to open sign-up and the SaaS plans', () => {
    const c = loadConfig({});
    expect(c.signup).toEqual({ mode: 'open' });
    expect(c.plans).toEqual({ mode: 'saas' });
  });

  it('takes SIGNUP_MODE invite or closed', () => {
    expect(loadConfig({ SIGNUP_MODE: 'invite' }).signup.mode).toBe('invite');
    expect(loadConfig({ SIGNUP_MODE: 'closed' }).signup.mode).toBe('closed');
  });

  it('starts a self-hosted instance on the unlimited plan unless DEFAULT_PLAN says otherwise', () => {
    expect(loadConfig({ PLANS_MODE: 'self-hosted' }).plans).toEqual({
      mode: 'self-hosted',
      defaultPlan: 'unlimited',
      limits: {},
    });
    expect(
      loadConfig({
        PLANS_MODE: 'self-hosted',
        DEFAULT_PLAN: 'basic',
        PLAN_MAX_VAULTS: '50',
        PLAN_MAX_FILE_SIZE_MB: '-1',
        PLAN_MAX_STORAGE_MB: '102400',
        PLAN_MAX_SHARE_LINKS: '10',
        PLAN_MAX_SHARE_MB: '-1',
      }).plans,
    ).toEqual({
      mode: 'self-hosted',
      defaultPlan: 'basic',
      limits: {
        max_vaults: 50,
        max_file_size_mb: -1,
        max_storage_mb: 102_400,
        max_share_links: 10,
        max_share_mb: -1,
      },
    });
  });

  it.each([
    ['SIGNUP_MODE', 'invite-only'],
    ['PLANS_MODE', 'family'],
    ['DEFAULT_PLAN', 'gold'],
    ['PLAN_MAX_VAULTS', 'many'],
    ['PLAN_MAX_VAULTS', '0'],
    ['PLAN_MAX_FILE_SIZE_MB', '-2'],
    ['PLAN_MAX_STORAGE_MB', '1.5'],
    ['PLAN_MAX_SHARE_LINKS', '-0.5'],
    ['PLAN_MAX_SHARE_MB', 'unlimited'],
  ])('stops with a message naming %s when it is %s', (name, value) => {
    const env = { PLANS_MODE: 'self-hosted', [name]: value };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  it('refuses DEFAULT_PLAN and PLAN_MAX_* in SaaS mode, naming them (they would be ignored)', () => {
    const load = () => loadConfig({ DEFAULT_PLAN: 'unlimited', PLAN_MAX_VAULTS: '5' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      'Invalid configuration: DEFAULT_PLAN, PLAN_MAX_VAULTS: only read when PLANS_MODE=self-hosted',
    );
  });
});
