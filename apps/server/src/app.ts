// The app factory: createApp(deps) builds the whole HTTP app, so tests call app.request()
// in-process and main.ts only reads config, opens the database and listens.
import { Hono } from 'hono';
import { errorBody, onError } from './http/errors.ts';
import { limitBodies } from './http/body-limit.ts';
import { compressJson } from './http/compress.ts';
import { sameOriginStateChanges, securityHeaders } from './http/security.ts';
import type { AppDeps, AppEnv } from './http/context.ts';
import { plansRoutes } from './plans/plans.routes.ts';
import { filesRoutes } from './files/files.routes.ts';
import { uploadsRoutes } from './files/uploads.routes.ts';
import { authConfigRoutes, authHandlerRoutes } from './auth/auth.routes.ts';
import { profilesRoutes } from './profiles/profiles.routes.ts';
import { webRoutes } from './web/static.ts';
import { limitsRoutes } from './plans/limits.routes.ts';
import { landingRoutes } from './landing/landing.routes.ts';
import { providerOrigins } from './storage/storage.config.ts';
import { storageConfigRoutes } from './storage/storage.routes.ts';
import { secretsRoutes } from './secrets/secrets.routes.ts';
import { movesRoutes } from './vaults/moves.routes.ts';
import { vaultsRoutes } from './vaults/vaults.routes.ts';
import { subscriptionsRoutes } from './subscriptions/subscriptions.routes.ts';
import { visibilityRoutes } from './subscriptions/visibility.routes.ts';
import { IPN_PATH, paymentsRoutes } from './payments/payments.routes.ts';
import { checkoutPageRoutes } from './payments/checkout.page.ts';
import { sharesRoutes } from './shares/shares.routes.ts';
import { publicShareRoutes } from './shares/public.routes.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { messages, type HealthResponse } from '@sealvault/protocol';
import { sql } from 'kysely';
import { requestIds } from './http/request-id.ts';
import { countRequests, createMetrics, disabledMetrics } from './metrics/metrics.ts';
import { METRICS_PATH, metricsHandler } from './metrics/metrics.routes.ts';
import { serverVersion } from './version.ts';
import { openApiDocument } from './openapi/document.ts';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const version = deps.version ?? serverVersion();
  const metrics =
    deps.metrics ??
    (deps.config.metricsToken
      ? createMetrics({ db: deps.db, logger: deps.logger, version })
      : disabledMetrics);

  // First, so that everything after it, the request's log line included, carries its id.
  app.use('*', requestIds());
  app.use('*', async (c, next) => {
    c.set('config', deps.config);
    c.set('db', deps.db);
    c.set('logger', deps.logger);
    c.set('now', deps.now);
    c.set('auth', deps.auth);
    c.set('files', deps.files);
    c.set('metrics', metrics);
    const started = performance.now();
    await next();
    // Method, path and status only: never bodies, query strings, cookies or tokens.
    deps.logger.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });
  // Without METRICS_TOKEN nothing is counted: no middleware at all, rather than one that finds
  // each request's route pattern for a no-op (issue 31).
  if (metrics !== disabledMetrics) app.use('*', countRequests(metrics));
  app.use(
    '*',
    securityHeaders(deps.config.payments?.checkoutHost, providerOrigins(deps.config.storage)),
  );
  // Before anything reads a body; the tus upload bodies are exempt (http/body-limit.ts).
  app.use('*', limitBodies());
  // JSON answers of 1 KiB or more go out gzipped; file bytes never (downloads, tus uploads, a
  // share link's content).
  app.use(
    '/api/*',
    compressJson({
      except: (p) =>
        /^\/api\/(?:uploads(?:\/|$)|vaults\/[^/]+\/files\/[^/]+\/content|s\/[^/]+\/content)/.test(
          p,
        ),
    }),
  );
  // The payment notification comes from the provider's servers and is authenticated by its
  // signature (payments/ipn.ts), so it is the one state change exempt from the same-origin rule.
  app.use('/api/*', sameOriginStateChanges(deps.config.publicUrl, [IPN_PATH]));
  app.onError(onError);

  const api = new Hono<AppEnv>();
  api.get('/health', async (c) => {
    await sql`select 1`.execute(c.var.db.kysely);
    return c.json({
      status: 'ok',
      database: c.var.db.kind,
      version: version.version,
      commit: version.commit,
    } satisfies HealthResponse);
  });
  api.route('/plans', plansRoutes());
  api.route('/landing', landingRoutes());
  api.route('/vaults/:vaultId/files', filesRoutes());
  api.route('/uploads', uploadsRoutes());
  api.route('/auth', authHandlerRoutes());
  api.route('/auth-config', authConfigRoutes());
  api.route('/storage-config', storageConfigRoutes());
  api.route('/me', profilesRoutes());
  api.route('/limits', limitsRoutes());
  api.route('/vaults/:vaultId/secrets', secretsRoutes());
  api.route('/subscription', subscriptionsRoutes());
  api.route('/payments', paymentsRoutes());
  api.route('/vaults/:vaultId/visibility', visibilityRoutes());
  api.route('/vaults/:vaultId/move', movesRoutes());
  api.route('/vaults', vaultsRoutes());
  api.route('/shares', sharesRoutes());
  api.route('/s', publicShareRoutes());
  api.route('/admin', adminRoutes());
  // This API's OpenAPI 3.1 description, built once from the route table (openapi/).
  let openapi: object | undefined;
  api.get('/openapi.json', (c) => c.json((openapi ??= openApiDocument(version))));
  api.all('*', (c) => c.json(errorBody('not_found', messages.generic.notFound), 404));
  app.route('/api', api);
  // Prometheus' scrape, behind METRICS_TOKEN; a 404 without it (never the web app's page).
  app.get(METRICS_PATH, metricsHandler(deps.config.metricsToken));

  // Before the app's pages: the checkout's own document, with its own CSP (http/security.ts).
  app.route('/', checkoutPageRoutes(deps.config.webDist));
  app.route('/', webRoutes(deps.config.webDist));
  return app;
}
