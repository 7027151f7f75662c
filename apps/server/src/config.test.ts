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

  it('keeps only the origin of PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://vault.example.com/some/path' }).publicUrl).toBe(
      'https://vault.example.com',
    );
  });
});
