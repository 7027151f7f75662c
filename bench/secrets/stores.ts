// Where bench/secrets/provider.ts looks at what a provider stores: the Dropbox emulator
// (e2e/emulators) started on loopback with its file listing, and a "This browser" vault's
// directory in the page's OPFS.
import type { Page } from 'playwright-core';
import { startDropboxEmulator } from '../shared/app.ts';

/** The Dropbox emulator on loopback, with a look at what it stores. */
export async function startDropbox(port: number) {
  const child = await startDropboxEmulator(port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    /** Every stored file's lower-case path and size. */
    async files(): Promise<Map<string, number>> {
      const res = (await (await fetch(`${origin}/__emulator/files`)).json()) as {
        files: { path_lower: string; size: number }[];
      };
      return new Map(res.files.map((f) => [f.path_lower, f.size]));
    },
    stop: () => child.kill('SIGTERM'),
  };
}

/** The seg-* blobs of a "This browser" vault in OPFS, with their sizes. */
export const opfsSegments = (page: Page, vaultId: string): Promise<Map<string, number>> =>
  page
    .evaluate(async (id) => {
      const root = await navigator.storage.getDirectory();
      const dir = await (await root.getDirectoryHandle('vaults')).getDirectoryHandle(id);
      const out: [string, number][] = [];
      const listing = dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> };
      for await (const [name, h] of listing.entries())
        if (name.startsWith('seg-') && h.kind === 'file')
          out.push([name, (await (h as FileSystemFileHandle).getFile()).size]);
      return out;
    }, vaultId)
    .then((e) => new Map(e));

/** The seg-* blobs in `after` that were not in `before`. */
export const added = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].filter(([name]) => !before.has(name) && /(^|\/)seg-/.test(name));
