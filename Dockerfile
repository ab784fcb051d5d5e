# syntax=docker/dockerfile:1
# preflight-gate: build the TypeScript, then run the built JavaScript with production
# dependencies only, as a non-root user, on a read-only root filesystem (see helm/).
#
# Base: the current Node LTS (26) on Debian 13 slim, pinned by digest so that every rebuild of a
# revision starts from the same bytes. The digest is kept current by Renovate's `dockerfile`
# manager (a PR per new digest); by hand: `docker buildx imagetools inspect node:26-trixie-slim`
# and paste the index digest here. The image test (test/image/, scripts/image/) builds this very
# file with buildah; where no container registry is reachable it assembles a local stand-in of the
# same name (Debian minbase + Node from the npm registry) and passes
# `--build-arg NODE_IMAGE=docker.io/library/node:26-trixie-slim`.
ARG NODE_IMAGE=docker.io/library/node:26-trixie-slim@sha256:930557a230abacbc3f4fd9b8648abf8f4bee1e17cb72195dcdfb2f709bc85b33

# --- build: every dependency (TypeScript), then dist/ --------------------------------------
FROM ${NODE_IMAGE} AS build
# A build behind a TLS-intercepting proxy passes its CA bundle (mounted) here; not kept in the image.
# NPM_CONFIG_REGISTRY: an npm mirror to install from (scripts/image/build.sh passes the host's).
ARG NODE_EXTRA_CA_CERTS
ARG NPM_CONFIG_REGISTRY
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` (tsc) would run here, before tsconfig and src/ are copied in.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The validators compiled from the schemas (scripts/build-validators.js, esbuild); the playground page
# (docs/playground.md) bundles the engine with esbuild, and the example payload it starts with (src/payload/).
COPY scripts/build-validators.js scripts/build-playground.js ./scripts/
RUN npm run build

# --- runtime: production dependencies and dist/ only ----------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Set by the build (`--build-arg VERSION=$(node -p "require('./package.json').version")
# --build-arg REVISION=$(git rev-parse HEAD)`); they end up in the labels and in
# preflight_gate_build_info.
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/preflight-gate/preflight-gate
ARG NODE_EXTRA_CA_CERTS
ARG NPM_CONFIG_REGISTRY
LABEL org.opencontainers.image.title="preflight-gate" \
      org.opencontainers.image.description="Policy guardrails for Steadybit chaos experiments: a signed, fail-closed preflight webhook." \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.version="${VERSION}"
ENV NODE_ENV=production \
    PORT=8080 \
    POLICY_DIR=/app/policies \
    PREFLIGHT_GATE_REVISION=${REVISION}
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY bin ./bin
# The policies built into the image: POLICY_DIR's default here. The chart mounts its own over
# another path and sets POLICY_DIR to it.
COPY policies ./policies
# The "node" user of the official image (uid/gid 1000); numeric, so runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
# Node as PID 1 gets SIGTERM directly: the service finishes requests in flight, then exits.
CMD ["node", "dist/main.js"]
