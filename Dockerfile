# Stream Registry. `npm ci` builds the registry (esbuild, at postinstall: apps/registry/bin/build.mjs)
# and the PGlite template, so there is no separate build stage; `npm start` runs that build.
FROM node:20-bookworm-slim

WORKDIR /app

# The whole tree goes in before `npm ci`: its postinstall generates the Prisma client and
# the GraphQL resolver types from prisma/ and the schema files.
COPY . .
RUN npm ci --no-audit --no-fund && npm cache clean --force

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    REGISTRY_DATA_DIR=/data

# The embedded database (used when DATABASE_URL is unset) lives in /data.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]

USER node
EXPOSE 4000
CMD ["npm", "start"]
