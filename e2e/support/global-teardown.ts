// Removes the throwaway data dir of the e2e server once every spec has run.
import fs from 'node:fs';

export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.includes('sealvault-e2e-')) fs.rmSync(dir, { recursive: true, force: true });
}
