// Zero-knowledge checks: a secret the test used must appear nowhere the server keeps things
// (the SQLite file and its WAL, the blob directory, the server log).
import fs from 'node:fs';
import path from 'node:path';

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * The server-side files that contain any of `secrets` (text, or bytes such as a slice of a
 * ciphertext), as "file: secret" lines (none is good).
 */
export function serverFilesContaining(secrets: (string | Buffer)[]): string[] {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  const hits: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = fs.readFileSync(file);
    for (const s of secrets) {
      const needle = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
      if (bytes.includes(needle))
        hits.push(`${path.relative(dir, file)}: ${needle.toString('hex', 0, 16)}`);
    }
  }
  return hits;
}

/** Sanity check that the scan reads real files: the server log must exist and be non-empty. */
export function serverLogSize(): number {
  const file = path.join(process.env.E2E_DATA_DIR ?? '', 'server.log');
  return fs.existsSync(file) ? fs.statSync(file).size : 0;
}
