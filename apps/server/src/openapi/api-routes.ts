// Every route of the API with the zod schemas that validate it (issue 33): the request bodies the
// routes parse with jsonBody (http/validate.ts) and the answers the protocol's client parses
// (packages/protocol, *.api.ts), both the same objects, not copies. document.ts turns this table
// into the OpenAPI description served at GET /api/openapi.json; openapi.test.ts holds it to the
// routes the app registers, so a route added without an entry here fails the tests.
import type { ApiRoute } from './route-table.ts';
import { ACCOUNT_ROUTES } from './routes.account.ts';
import { ADMIN_ROUTES } from './routes.admin.ts';
import { TRANSFER_ROUTES } from './routes.transfers.ts';
import { VAULT_ROUTES } from './routes.vaults.ts';

export type { ApiResponse, ApiRoute, Body, Method } from './route-table.ts';

export const API_ROUTES: readonly ApiRoute[] = [
  ...ACCOUNT_ROUTES,
  ...ADMIN_ROUTES,
  ...VAULT_ROUTES,
  ...TRANSFER_ROUTES,
];
