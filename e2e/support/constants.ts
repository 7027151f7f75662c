// Values shared by the e2e config, its helper servers and the specs.

/** The app's client at the local OpenID provider (e2e/support/oidc.ts). */
export const OIDC_CLIENT_ID = 'sealvault-e2e';
export const OIDC_CLIENT_SECRET = 'sealvault-e2e-secret';

/** The app's public client ids at the cloud storage emulators (e2e/emulators). */
export const DROPBOX_APP_KEY = 'sealvault-e2e-dropbox';
export const DRIVE_CLIENT_ID = 'sealvault-e2e-drive.apps.googleusercontent.com';
export const ONEDRIVE_CLIENT_ID = 'sealvault-e2e-onedrive';

/** The emulators' control APIs (test tooling: what they hold, faults to inject). */
export const emulatorControl = {
  dropbox: () => `http://127.0.0.1:${process.env.E2E_DROPBOX_PORT}/__emulator`,
  googledrive: () => `http://127.0.0.1:${process.env.E2E_DRIVE_PORT}/__emulator`,
  onedrive: () => `http://127.0.0.1:${process.env.E2E_ONEDRIVE_PORT}/__emulator`,
};
