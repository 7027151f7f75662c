// The browser provider's writer (opfs.ts): a dedicated Worker, because only there can the origin
// private file system be written through a synchronous access handle (no copy through a writable
// stream, no promise per write). One file is written at a time per `open` id; it is written as
// "<name>.part" and renamed when complete, so a reader never sees half a blob. Thin: no logic
// beyond the file calls.

type Request =
  | { id: number; op: 'open'; vault: string; name: string }
  | { id: number; op: 'write'; bytes: Uint8Array<ArrayBuffer> }
  | { id: number; op: 'close' }
  | { id: number; op: 'abort' };

interface Open {
  dir: FileSystemDirectoryHandle;
  name: string;
  file: FileSystemFileHandle;
  handle: FileSystemSyncAccessHandle;
  at: number;
}
let current: Open | null = null;

async function vaultDir(vault: string): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  const vaults = await root.getDirectoryHandle('vaults', { create: true });
  return vaults.getDirectoryHandle(vault, { create: true });
}

async function handle(req: Request): Promise<unknown> {
  switch (req.op) {
    case 'open': {
      if (current) throw new Error('A blob is already being written');
      const dir = await vaultDir(req.vault);
      const file = await dir.getFileHandle(`${req.name}.part`, { create: true });
      const handle = await file.createSyncAccessHandle();
      handle.truncate(0);
      current = { dir, name: req.name, file, handle, at: 0 };
      return null;
    }
    case 'write': {
      if (!current) throw new Error('No blob is open');
      let done = 0;
      while (done < req.bytes.length) {
        done += current.handle.write(req.bytes.subarray(done), { at: current.at + done });
      }
      current.at += done;
      return current.at;
    }
    case 'close': {
      if (!current) throw new Error('No blob is open');
      const { dir, name, file, handle, at } = current;
      current = null;
      handle.flush();
      handle.close();
      await dir.removeEntry(name).catch(() => undefined); // an older blob of the same name
      await (file as FileSystemFileHandle & { move(name: string): Promise<void> }).move(name);
      return at;
    }
    case 'abort': {
      if (!current) return null;
      const { dir, name, handle } = current;
      current = null;
      handle.close();
      await dir.removeEntry(`${name}.part`).catch(() => undefined);
      return null;
    }
  }
}

self.addEventListener('message', (event: MessageEvent<Request>) => {
  const req = event.data;
  handle(req).then(
    (value) => self.postMessage({ id: req.id, ok: true, value }),
    (err: unknown) => {
      const name = err instanceof DOMException ? err.name : 'Error';
      const message = err instanceof Error ? err.message : String(err);
      self.postMessage({ id: req.id, ok: false, name, message });
    },
  );
});
