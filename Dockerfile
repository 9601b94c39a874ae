# syntax=docker/dockerfile:1
# Bindery in production: compiled JavaScript on Node 20, production dependencies only, run as a
# non-root user. SQLite lives on the /data volume; set DATABASE_URL=postgres://… to use PostgreSQL.
#
#   docker build -t bindery .
#   docker run -p 8080:8080 -v bindery-data:/data -e PUBLIC_URL=http://localhost:8080 bindery
#   docker run --rm -v bindery-data:/data bindery bootstrap --email you@example.com --name You --org Acme

ARG NODE_VERSION=20

# --- build: every dependency (TypeScript, the native build of better-sqlite3), then tsc -> dist/
FROM node:${NODE_VERSION}-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary matches the platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build
# The web app: static files built by Vite (a dev dependency), served from app/dist.
COPY app ./app
RUN npm run build:app
# Keep only the production dependencies (native modules stay built for this image's Node).
RUN npm prune --omit=dev --no-fund --no-audit

# --- runtime: dist/, bin/ and the production node_modules; no sources, no compiler
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=/data/bindery.sqlite
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/app/dist ./app/dist
COPY bin ./bin
# The image's `node` user (uid 1000) owns the data directory and nothing else.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# /readyz answers 200 only while the database answers; fetch is built into Node 20.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/bindery.js"]
CMD ["serve"]
