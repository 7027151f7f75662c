// The protocol shared by web and server: the API's shapes (zod schemas), its client, the spec's
// texts and the plan rules. Import from here, except where start-up time counts:
//
// [Note: schema-free modules]
// Building the zod schemas of every module here is the largest piece of the web app's start-up
// work (bench/RESULTS.md, "Lighthouse (issue 17)"), and the landing page needs none of them. The
// modules with no zod (messages.ts, planRules.ts, apiError.ts; schemaFree.test.ts keeps them so)
// are package.json subpaths (`@sealvault/protocol/messages`, `/plan-rules`, `/api-error`) for the
// web app's start-up code; `/client` and `/landing-api` are the reads it loads afterwards. The
// package is marked side-effect free, so a bundle that imports one name from here carries only
// the modules that name needs.
export * from './messages.ts';
export * from './plans.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './client.ts';
export * from './userMessage.ts';
export * from './vaults.ts';
export * from './vaults.api.ts';
export * from './vaultNames.ts';
export * from './manifest.ts';
export * from './secrets.ts';
export * from './secrets.api.ts';
export * from './files.ts';
export * from './files.api.ts';
export * from './moves.ts';
export * from './moves.api.ts';
export * from './profile.ts';
export * from './subscriptions.ts';
export * from './subscriptions.api.ts';
export * from './trials.ts';
export * from './landing.ts';
export * from './landing.api.ts';
export * from './storage.ts';
export * from './shares.ts';
export * from './shares.api.ts';
export * from './passkeys.ts';
export * from './opaque.ts';
export * from './instance.ts';
export * from './invitations.ts';
export * from './admin.ts';
export * from './admin.api.ts';
