// The Better Auth secret (signs cookies, encrypts OAuth state). BETTER_AUTH_SECRET wins; without
// it a random 32-byte secret is generated once and kept in `${DATA_DIR}/auth-secret` (mode 0600),
// so `npm start` works with no configuration and sessions survive restarts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR_MODE } from '../db/file-modes.ts';

export function resolveAuthSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'auth-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const secret = crypto.randomBytes(32).toString('base64url');
  try {
    // 'wx': when two instances start at once, the second one reads the first one's secret.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return fs.readFileSync(file, 'utf8').trim();
  }
}
