// The tus lock of an upload (one request writes it at a time), across instances [Note: shared
// locks in db/locks.ts]. @tus/server's MemoryLocker keeps the lock within this process, and asks
// a request of this process that holds it to let go when a newer one comes (a client resuming
// after a dropped connection). Across instances a PostgreSQL advisory lock is taken too, after the
// process's own: a PATCH reaching one instance while another instance writes the same upload waits
// briefly, then is refused with 423 and writes nothing; the tus client retries from the offset
// that HEAD reports. On SQLite the memory lock alone is used, as before.
import { MemoryLocker, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { HeldLock, SharedLocks } from '../db/locks.ts';
import { TusHttpError } from './uploads.errors.ts';

export const LOCKED_STATUS = 423;
export const lockedText = 'This upload is being written by another request. Try again.';
/** How long a request waits for another instance's request to finish with the upload. */
const SHARED_WAIT_MS = 2_000;
const POLL_MS = 100;

export function createUploadLocker(locks: SharedLocks | null): Locker {
  const local = new MemoryLocker({ acquireLockTimeout: 30_000 });
  if (!locks) return local;
  return { newLock: (id) => new SharedUploadLock(id, local.newLock(id), locks) };
}

class SharedUploadLock implements Lock {
  private held: HeldLock | null = null;
  constructor(
    private readonly id: string,
    private readonly local: Lock,
    private readonly locks: SharedLocks,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.local.lock(signal, requestRelease);
    try {
      const deadline = Date.now() + SHARED_WAIT_MS;
      for (;;) {
        this.held = await this.locks.tryLock(`sealvault:upload:${this.id}`);
        if (this.held) return;
        if (signal.aborted || Date.now() >= deadline) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      throw new TusHttpError(LOCKED_STATUS, 'conflict', lockedText);
    } catch (err) {
      await this.local.unlock();
      throw err;
    }
  }

  async unlock(): Promise<void> {
    const held = this.held;
    this.held = null;
    try {
      await held?.release();
    } finally {
      await this.local.unlock();
    }
  }
}
