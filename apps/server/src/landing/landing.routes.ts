// GET /api/landing: the landing page's statistics and testimonials, public (LANDING_CONFIG,
// landing.config.ts). They change only with a restart, so browsers may keep them a few minutes.
import { Hono } from 'hono';
import type { LandingContent } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';

export function landingRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(c.var.config.landing satisfies LandingContent);
  });
}
