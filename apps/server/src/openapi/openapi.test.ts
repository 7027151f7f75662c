import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inspectRoutes } from 'hono/dev';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createVaultRequestSchema,
  errorBodySchema,
  vaultsResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { API_ROUTES } from './api-routes.ts';
import { openApiPath } from './document.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
});
afterAll(() => t.close());

interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Document {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

async function fetchDocument(): Promise<Document> {
  const res = await t.request('/api/openapi.json');
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

/**
 * The routes the app registers that answer (not middleware), of the API and /metrics: Hono's own
 * list. The catch-alls that answer 404 for anything else are not routes of the API.
 */
function registeredRoutes(): string[] {
  const fallbacks = new Set(['ALL /api/*', 'ALL /api/s/*']);
  return inspectRoutes(t.app)
    .filter((r) => !r.isMiddleware)
    .filter((r) => r.path.startsWith('/api/') || r.path === '/metrics')
    .map((r) => `${r.method} ${r.path}`)
    .filter((r) => !fallbacks.has(r));
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the server version', async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe('3.1.0');
    const root = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../../package.json'), 'utf8'),
    ) as { version: string };
    expect(doc.info.version).toBe(root.version);
    expect(doc.components.schemas.Error).toBeTruthy();
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('lists every route the app registers, and none it does not', async () => {
    const doc = await fetchDocument();
    const registered = registeredRoutes();
    expect(registered.length).toBeGreaterThan(50);
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const asOpenApi = registered.map((r) => {
      const [method = '', p = ''] = r.split(' ');
      return `${method} ${openApiPath(p)}`;
    });
    expect(
      asOpenApi.filter((r) => !documented.includes(r)),
      'undocumented routes',
    ).toEqual([]);
    expect(
      documented.filter((r) => !asOpenApi.includes(r)),
      'documented, not registered',
    ).toEqual([]);
    expect(new Set(API_ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(API_ROUTES.length);
  });

  it('describes bodies with the same zod schemas the routes validate with', async () => {
    const doc = await fetchDocument();
    const create = doc.paths['/api/vaults']?.post;
    const bodySchema = create?.requestBody?.content['application/json']?.schema;
    expect(bodySchema).toMatchObject({ type: 'object' });
    const required = (bodySchema as { required?: string[] }).required ?? [];
    expect(required.length).toBeGreaterThan(0);
    // The fields the schema requires are the ones createVaultRequestSchema refuses without.
    for (const field of required) {
      expect(createVaultRequestSchema.shape).toHaveProperty(field);
    }
    const list = doc.paths['/api/vaults']?.get?.responses['200']?.content?.['application/json'];
    expect(list?.schema).toMatchObject({
      type: 'object',
      properties: { vaults: { type: 'array' } },
    });
    expect(Object.keys(vaultsResponseSchema.shape)).toEqual(['vaults']);
  });

  it('has each JSON body checked by its schema: the route refuses what the schema refuses', async () => {
    // Ids that pass every route's id check (a share link's is 22 characters, the rest UUIDs), so
    // that the body is what gets refused; an admin passes every role check.
    const shareId = () => randomBytes(16).toString('base64url').slice(0, 22);
    const checked = API_ROUTES.filter((r) => r.body && 'json' in r.body);
    expect(checked.length).toBeGreaterThan(20);
    for (const route of checked) {
      const url = route.path.replace(/:[A-Za-z]+/g, () =>
        route.path.startsWith('/api/shares/') ? shareId() : randomUUID(),
      );
      const res = await t.request(url, {
        method: route.method.toUpperCase(),
        headers: { cookie: admin.cookie, 'content-type': 'application/json' },
        body: '["not", "an", "object"]',
      });
      const what = `${route.method} ${route.path}`;
      expect(res.status, what).toBe(400);
      expect(errorBodySchema.parse(await res.json()).error.code, what).toBe('bad_request');
    }
  });
});
