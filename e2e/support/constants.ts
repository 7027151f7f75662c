// Values shared by the e2e config, its helper servers and the specs.

/** The app's client at the local OpenID provider (e2e/support/oidc.ts). */
export const OIDC_CLIENT_ID = 'sealvault-e2e';
export const OIDC_CLIENT_SECRET = 'sealvault-e2e-secret';
