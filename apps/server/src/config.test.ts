import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to port 3000, ./data and an SQLite file inside it', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe(path.resolve('data'));
    expect(c.database).toEqual({ kind: 'sqlite', file: path.resolve('data', 'vault.db') });
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('switches to PostgreSQL when DATABASE_URL is a postgres URL', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u@127.0.0.1:5432/db' });
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

  it('keeps only the origin of PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://vault.example.com/some/path' }).publicUrl).toBe(
      'https://vault.example.com',
    );
  });
});
