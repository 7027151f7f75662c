// Global setup of the web app's browser tests: the Dropbox, Google Drive and OneDrive emulators (test
// tooling in e2e/emulators, written from the providers' public references) on loopback, for the
// cloud providers' contract tests. The URLs reach the tests through Vitest's provide/inject.
import type { TestProject } from 'vitest/node';
import { startDropboxEmulator } from '../../../../../e2e/emulators/dropbox.ts';
import { startGoogleDriveEmulator } from '../../../../../e2e/emulators/googledrive.ts';
import { startOneDriveEmulator } from '../../../../../e2e/emulators/onedrive.ts';

export interface EmulatorUrls {
  dropbox: { origin: string; authUrl: string; apiUrl: string; contentUrl: string };
  googledrive: { origin: string; oauthUrl: string; apiUrl: string; revokeUrl: string };
  onedrive: { origin: string; authUrl: string; tokenUrl: string; contentOrigin: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    emulators: EmulatorUrls;
  }
}

async function start() {
  // Ports chosen by vitest.browser.config.ts, which proxies their control APIs to the page's
  // origin: /__dropbox-control/..., /__drive-control/... and /__onedrive-control/... stand for
  // /__emulator/....
  const [dropbox, googledrive, onedrive] = await Promise.all([
    startDropboxEmulator({ port: Number(process.env.SEALVAULT_TEST_DROPBOX_PORT ?? 0) }),
    startGoogleDriveEmulator({ port: Number(process.env.SEALVAULT_TEST_DRIVE_PORT ?? 0) }),
    startOneDriveEmulator({ port: Number(process.env.SEALVAULT_TEST_ONEDRIVE_PORT ?? 0) }),
  ]);
  return { dropbox, googledrive, onedrive };
}

// Run once for the browser project and again for its Chromium instance, in one process.
let started: ReturnType<typeof start> | null = null;
let users = 0;

export default async function setup(project: TestProject) {
  started ??= start();
  const { dropbox, googledrive, onedrive } = await started;
  project.provide('emulators', {
    dropbox: {
      origin: dropbox.origin,
      authUrl: dropbox.authUrl,
      apiUrl: dropbox.apiUrl,
      contentUrl: dropbox.contentUrl,
    },
    googledrive: {
      origin: googledrive.origin,
      oauthUrl: googledrive.oauthUrl,
      apiUrl: googledrive.apiUrl,
      revokeUrl: googledrive.revokeUrl,
    },
    onedrive: {
      origin: onedrive.origin,
      authUrl: onedrive.authUrl,
      tokenUrl: onedrive.tokenUrl,
      contentOrigin: onedrive.contentOrigin,
    },
  });
  users += 1;
  return async () => {
    users -= 1;
    if (users === 0) await Promise.all([dropbox.stop(), googledrive.stop(), onedrive.stop()]);
  };
}
