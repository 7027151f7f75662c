# syntax=docker/dockerfile:1
# SealVault: one image, one Node process serving the web app and the API (docs/deploy.md).
#   docker build --build-arg GIT_COMMIT=$(git rev-parse --short HEAD) -t sealvault .
#   docker run -p 3000:3000 -v sealvault-data:/data sealvault
# Two variants (docs/deploy.md, "Images"): the default target `runtime` (SQLite, or PostgreSQL
# without `npm run backup`), and `--target postgres -t sealvault:postgres`, which adds the
# PostgreSQL client that backups of a PostgreSQL database need. With podman, add --format docker
# (its default OCI format drops the HEALTHCHECK).
# The server runs its TypeScript through tsx, as `npm start` does: there is no server compile step.
# Node 24 (LTS, supported until April 2028), the Node of development and CI, on Debian 13, whose
# postgresql-client (17) has the pg_dump and pg_restore that `npm run backup` and `npm run restore`
# need for PostgreSQL up to 17 (the `postgres` target). better-sqlite3 13 (Node-API) is needed
# there: 12 on Node 24 at times aborted the process (README "Node versions").
# Another Node (22 or newer): --build-arg NODE_IMAGE=node:22-trixie-slim.

ARG NODE_IMAGE=node:24-trixie-slim

# --- toolchain: what node-gyp needs to compile better-sqlite3 ---------------------------------
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# node-gyp builds against the headers the image ships, not downloaded ones. Given as node-gyp's
# own package-config variable: as npm_config_nodedir, npm 11 warns "Unknown env config" at every
# npm command.
ENV npm_package_config_node_gyp_nodedir=/usr/local
# npm ci checks the lockfile against every workspace's package.json, so all of them come along.
COPY package.json package-lock.json .npmrc ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/crypto/package.json packages/crypto/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/

# --- build: every dependency, then the web app (Vite) ------------------------------------------
FROM toolchain AS build
RUN npm ci --no-audit --no-fund
# The whole context (.dockerignore keeps out node_modules, data, tests and outputs), so that any
# build step the web app gains finds what it needs.
COPY . .
RUN npm run build

# --- prod-deps: the server's production dependencies only (better-sqlite3 compiles once more) --
# npm ci --omit=dev also keeps what is a dev dependency and an optional peer of a production one
# (Better Auth names vitest, which brings vite, jsdom, happy-dom and playwright), and the web
# app's own dependencies: prod-deps.mjs prune removes every package the server does not reach.
# `npm test` runs prod-deps.mjs check, which fails if test or build tooling is left.
FROM toolchain AS prod-deps
COPY scripts/prod-deps.mjs scripts/
RUN npm ci --omit=dev --workspace=@sealvault/server --no-audit --no-fund \
  && node scripts/prod-deps.mjs prune \
  && rm -rf scripts

# --- base: what both variants run ---------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
# NODE_ENV is deliberately left unset, as under `npm start` and in the tests: Better Auth changes
# cookie naming and error pages when it is "production", and the server configures all of that
# itself from PUBLIC_URL.
ENV HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data
# The manifests and node_modules (the root's and any nested in a workspace), owned by root and
# read-only to the server's user.
COPY --from=prod-deps /app/ ./
COPY packages/protocol/src/ packages/protocol/src/
COPY apps/server/src/ apps/server/src/
COPY --from=build /app/apps/web/dist/ apps/web/dist/
RUN mkdir -p /data && chown node:node /data
# The commit the image is built from, for GET /api/health, the start-up log line and the metrics
# (apps/server/src/version.ts; the image has no .git to ask):
#   docker build --build-arg GIT_COMMIT=$(git rev-parse --short HEAD) -t sealvault .
# Declared this late so that a new commit rebuilds no earlier layer.
ARG GIT_COMMIT=unknown
ENV GIT_COMMIT=${GIT_COMMIT}
USER node
VOLUME ["/data"]
EXPOSE 3000
# GET /api/health answers 200 once the database answers (apps/server/src/app.ts). No curl in the
# slim image: Node's own fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]

# --- postgres: with pg_dump and pg_restore for `npm run backup`/`restore` of PostgreSQL --------
FROM base AS postgres
USER root
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/*
USER node

# --- runtime: the default image (last stage), without the PostgreSQL client --------------------
FROM base AS runtime
