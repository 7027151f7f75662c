// The OPAQUE server setup (RFC 9807: the OPRF seed and the server's long-term key pair), a secret
// kept like the Better Auth secret (auth.secret.ts). OPAQUE_SERVER_SETUP wins, and must be the same
// on every instance; without it one is generated once and kept in `${DATA_DIR}/opaque-server-setup`
// (mode 0600), which suits a single instance. Changing it makes every stored record useless: each
// account then needs a password reset. A malformed value stops the server at start.
import fs from 'node:fs';
import path from 'node:path';
import * as opaque from '@serenity-kit/opaque';
import { DATA_DIR_MODE } from '../db/file-modes.ts';

await opaque.ready;

const FILE = 'opaque-server-setup';

/** Throws a message naming the variable (or file) when `setup` is not a usable server setup. */
function checked(setup: string, source: string): string {
  try {
    opaque.server.getPublicKey(setup);
    return setup;
  } catch {
    throw new Error(`${source} is not a valid OPAQUE server setup (171 base64url characters)`);
  }
}

export function resolveOpaqueServerSetup(configured: string | undefined, dataDir: string): string {
  if (configured) return checked(configured, 'OPAQUE_SERVER_SETUP');
  const file = path.join(dataDir, FILE);
  const read = () => checked(fs.readFileSync(file, 'utf8').trim(), file);
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const setup = opaque.server.createSetup();
  try {
    // 'wx': when two instances start at once, the second one reads the first one's setup.
    fs.writeFileSync(file, `${setup}\n`, { mode: 0o600, flag: 'wx' });
    return setup;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return read();
  }
}
