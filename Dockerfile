# syntax=docker/dockerfile:1
# preflight-gate: build the TypeScript, then run the built JavaScript with production
# dependencies only, as a non-root user, on a read-only root filesystem (see charts/preflight-gate/).

ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: every dependency (TypeScript), then dist/ --------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- runtime: production dependencies and dist/ only ----------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    POLICY_DIR=/app/policies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
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
