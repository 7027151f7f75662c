// The cloud providers this server has configured (GET /api/storage-config, issue 16), loaded once
// per page and kept for code that is not React (the providers) as well as for the screens.
import { storageApi, type StorageConfigResponse } from '@sealvault/protocol';
import { connections } from './connections.ts';

let current: StorageConfigResponse | null = null;
let loading: Promise<StorageConfigResponse> | null = null;

/** The configuration, fetched on first call; a failed fetch is tried again on the next call. */
export function loadStorageConfig(): Promise<StorageConfigResponse> {
  loading ??= storageApi.config().then(
    (c) => {
      current = c;
      connections.touch();
      return c;
    },
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/** What is known now: null until loaded (every cloud provider then reads as not set up). */
export const storageConfigNow = (): StorageConfigResponse | null => current;

/** For tests: a configuration without a server. */
export function setStorageConfig(c: StorageConfigResponse | null): void {
  current = c;
  loading = c ? Promise.resolve(c) : null;
}
