# syntax=docker/dockerfile:1
#
# Hotspot user service: multi-stage build.
#   docker build -t hotspot-user-service .
#   docker run -p 3000:3000 -e DATABASE_URL=mysql://user:pass@db:3306/hotspot -e BOOTSTRAP_TOKEN=... -e SECRETS_KEY=... hotspot-user-service
# Without DATABASE_URL the embedded SQLite database lives in /app/data: mount a volume there
# (-v hotspot-data:/app/data) to keep it. NODE_ENV=production: the service does not start without
# SECRETS_KEY or SECRETS_KEY_FILE (a file made 0600 on the first start when missing, e.g. a second
# volume's /app/keys/secrets.key, kept apart from the data's backups).
# The hotspot command line inside a container (it runs the compiled code; `npm run -s token -- …` works too):
#   docker compose exec app node dist/src/cli/main.js token create --name admin --permissions read,write,delete
#   docker compose exec app node dist/src/cli/main.js --help

# Node 26, the newest of the supported LTS lines (package.json engines: 22.14 or later, 24.11 or later,
# 26); --build-arg NODE_VERSION=22 or 24 builds on another. Node 20 reached its end of life, and
# @nestjs/common's file-type needs 22.
ARG NODE_VERSION=26

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# npm ci runs node-gyp (python3, make) on better-sqlite3, which compiles (g++) only when none of the
# native modules it ships fits.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci runs the `prepare` script, which builds only where there are sources: not yet (see below).
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
# The console's templates, message catalogues and static files, which the service reads from
# src/console/ at start-up, are gathered apart so that the image gets them without any TypeScript.
RUN npm run build \
    && npm prune --omit=dev --no-audit --no-fund \
    && npm cache clean --force \
    && find src/console \( -name '*.eta' -o -name 'messages.*.json' -o -path 'src/console/static/*' \) -type f \
        -exec cp --parents {} /tmp/ \; \
    && mv /tmp/src /app/web-assets

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# The heap limits keep the service's resident memory under about 250 MB (see docs/performance.md, "Memory"): V8
# otherwise lets the heap grow towards a limit sized for the host's memory before it collects.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=160 --max-semi-space-size=8" \
    TZ=UTC \
    HOST=0.0.0.0 \
    PORT=3000
# The commit the image is built from, which the service shows (hotspot --version, /healthz,
# X-Service-Version): docker build --build-arg SERVICE_COMMIT=$(git rev-parse HEAD) .
ARG SERVICE_COMMIT=
ENV SERVICE_COMMIT=${SERVICE_COMMIT}
WORKDIR /app
# Code and dependencies stay owned by root (read-only for the app); only the data folder is writable.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The FreeRADIUS templates `hotspot radius-config` fills in.
COPY deploy/freeradius ./deploy/freeradius
# The console's page templates, message catalogues and static files (read from src/console/ at start-up).
COPY --from=build /app/web-assets ./src
# The npm scripts of the command line (`npm run -s token -- list`) check the build through it.
COPY --from=build /app/scripts ./scripts
# 0700: the SQLite database is private to the app's user (a new named volume takes this mode too).
# radius-config: where the FreeRADIUS configuration is written (a volume shared with the freeradius service).
RUN mkdir -p -m 0700 /app/data /app/radius-config && chown node:node /app/data /app/radius-config
USER node
EXPOSE 3000
# No curl in the slim image: Node's fetch probes the liveness endpoint.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/main.js"]
