export * from './messages.ts';
export * from './plans.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './client.ts';
export * from './vaults.ts';
export * from './vaults.api.ts';
