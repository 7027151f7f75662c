// Starts one of the test emulators and serves until killed (SIGINT/SIGTERM):
//   node --import tsx e2e/emulators/cli.ts <name> [--port N]
// It prints the emulator's URLs as one line of JSON on stdout, for a Playwright webServer or a
// shell script to read. Each emulator registers its start function in `emulators` below.
import { startDropboxEmulator } from './dropbox.ts';
import { startGoogleDriveEmulator } from './googledrive.ts';
import { startOneDriveEmulator } from './onedrive.ts';

interface Started {
  stop(): Promise<void>;
}

const emulators: Record<string, (opts: { port?: number }) => Promise<Started>> = {
  dropbox: startDropboxEmulator,
  googledrive: startGoogleDriveEmulator,
  onedrive: startOneDriveEmulator,
};

function usage(): never {
  console.error(
    `usage: node --import tsx e2e/emulators/cli.ts <${Object.keys(emulators).join('|')}> [--port N]`,
  );
  process.exit(2);
}

const [name, ...rest] = process.argv.slice(2);
const start = name === undefined ? undefined : emulators[name];
if (!start) usage();

let port: number | undefined;
for (let i = 0; i < rest.length; i += 1) {
  const arg = rest[i] ?? '';
  const value = arg.startsWith('--port=') ? arg.slice('--port='.length) : undefined;
  if (arg !== '--port' && value === undefined) usage();
  port = Number(value ?? rest[(i += 1)]);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usage();
}

const emulator = await start({ port });
// JSON.stringify leaves out stop(): what remains are the URLs.
console.log(JSON.stringify(emulator));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void emulator.stop().then(() => process.exit(0));
  });
}
