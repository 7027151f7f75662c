// The OpenAPI 3.1 description of the API (issue 33), built from the route table (api-routes.ts)
// with zod's own JSON Schema output: OpenAPI 3.1 schemas are JSON Schema 2020-12, so zod's
// `z.toJSONSchema` output goes in as it is, no converter library needed. Request bodies are
// described as zod parses them (its input side), answers as the server writes them (its output).
import { z } from 'zod';
import { errorBodySchema } from '@sealvault/protocol';
import type { ServerVersion } from '../version.ts';
import { API_ROUTES, type ApiRoute, type Body } from './api-routes.ts';

type JsonObject = Record<string, unknown>;

/** The error answer with the request's id (http/errors.ts, ErrorAnswer). */
const errorAnswerSchema = z.object({
  error: errorBodySchema.shape.error.extend({
    requestId: z.string().optional().describe("The request's id, as in X-Request-Id."),
  }),
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    // A transform or refinement JSON Schema cannot say is left open ({}), never an error.
    unrepresentable: 'any',
  }) as JsonObject;
  delete out.$schema;
  return out;
}

function content(body: Body, io: 'input' | 'output'): JsonObject {
  if ('json' in body) return { 'application/json': { schema: jsonSchema(body.json, io) } };
  return {
    [body.media]: {
      schema: body.binary
        ? { type: 'string', contentMediaType: 'application/octet-stream' }
        : { description: body.description },
    },
  };
}

/** Hono's `/api/vaults/:id` as OpenAPI's `/api/vaults/{id}`; a `*` subtree as `{path}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, '/{path}');
}

const paramsOf = (openPath: string) => [...openPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

function operation(route: ApiRoute): JsonObject {
  const openPath = openApiPath(route.path);
  const parameters = [
    ...paramsOf(openPath).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...(Object.entries(route.query?.shape ?? {}) as [string, z.ZodType][]).map(
      ([name, schema]) => ({
        name,
        in: 'query',
        required: !schema.safeParse(undefined).success,
        schema: jsonSchema(schema, 'input'),
      }),
    ),
    ...Object.entries(route.headers ?? {}).map(([name, description]) => ({
      name,
      in: 'header',
      description,
      schema: { type: 'string' },
    })),
  ];
  const responses: JsonObject = {};
  for (const [status, res] of Object.entries(route.responses)) {
    responses[status] = {
      description: res.description,
      ...(res.body ? { content: content(res.body, 'output') } : {}),
      ...(res.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(res.headers).map(([name, description]) => [
                name,
                { description, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
    };
  }
  responses.default = {
    description:
      'An error: `{ error: { code, message, requestId } }` (a 4xx message may be shown to users).',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  return {
    operationId: `${route.method} ${route.path}`,
    summary: route.summary,
    tags: [route.tag],
    security:
      route.auth === 'session'
        ? [{ session: [] }]
        : route.auth === 'metrics'
          ? [{ metrics: [] }]
          : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: content(route.body, 'input') } }
      : {}),
    responses,
  };
}

/** The whole document; `routes` defaults to the API's table. */
export function openApiDocument(
  version: ServerVersion,
  routes: readonly ApiRoute[] = API_ROUTES,
): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const p = (paths[openApiPath(route.path)] ??= {});
    p[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'SealVault API',
      version: version.version,
      description: `The JSON API of SealVault (commit ${version.commit}). The server holds ciphertext, wrapped keys and the metadata a user sees while a vault is locked (docs/architecture.md). Every answer has an X-Request-Id header.`,
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(errorAnswerSchema, 'output') },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sealvault.session_token',
          description:
            'The session cookie Better Auth sets at sign-in (`__Secure-sealvault.session_token` over https). State changes must come from PUBLIC_URL (Origin).',
        },
        metrics: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN.' },
      },
    },
  };
}
