// METRICS_TOKEN (issue 33): the Bearer token Prometheus sends to GET /metrics
// (metrics.routes.ts); unset, there are no metrics. Checked at start-up by config.ts: at least 16
// characters of a Bearer token's alphabet (RFC 6750, section 2.1), e.g. `openssl rand -hex 32`.
import { z } from 'zod';

export const METRICS_TOKEN_MIN_LENGTH = 16;

export const metricsEnv = {
  METRICS_TOKEN: z
    .string()
    .min(METRICS_TOKEN_MIN_LENGTH, `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`)
    .max(512, 'must be at most 512 characters')
    .regex(/^[A-Za-z0-9._~+/-]+=*$/, 'must be letters, digits and - . _ ~ + / only')
    .optional(),
};
