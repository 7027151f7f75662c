// The keys behind the app's vault sessions (vaultSessions.ts), with the crypto client loaded when
// a vault is first unlocked rather than with the page.
//
// [Note: crypto client on first unlock]
// Every signed-in screen holds the app's session store (sessionContext.tsx): the top bar signs
// out through it and the dashboard's cards ask it which vaults are open. Built over
// crypto/vaultKeys.ts it brought the whole crypto package (hash-wasm, the slot, stream and
// manifest code, about 20 KiB compressed) onto the dashboard's first screen, which opens no vault
// (issue 31). The store needs the keys only to open a vault and to make the Worker forget one, and
// nothing can be forgotten before something was opened: so the client loads on the first unlock,
// and a lock after it runs once the (by then loaded) module answers, in the order asked.
import { deferredModule } from '../components/deferredModule.ts';
import type { SessionKeys } from './vaultSessions.ts';

/** `load` gives the keys (crypto/vaultKeys.ts in the app; tests pass their own). */
export function deferredSessionKeys(
  load: () => Promise<SessionKeys> = async () => (await import('../crypto/vaultKeys.ts')).vaultKeys,
): SessionKeys {
  // One promise for every call, so that a lock and a later unlock reach the Worker in that order;
  // a failed load (the network) is tried again by the next call (deferredModule).
  const keys = deferredModule(load);
  return {
    unlock: async (vaultId, key, password) => (await keys.load()).unlock(vaultId, key, password),
    lock(vaultId) {
      // A client that never loaded holds no keys to forget.
      keys.load().then(
        (k) => k.lock(vaultId),
        () => undefined,
      );
    },
  };
}
