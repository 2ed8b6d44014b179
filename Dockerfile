# Node 22 LTS in both stages (some dependencies, e.g. file-type, want >= 22).

# Build stage: install exactly the lock file, generate the Prisma client, compile, then drop dev
# dependencies. --ignore-scripts: no install script is needed (Prisma runs its JavaScript schema
# engine and the client's query compiler, so the engine binaries @prisma/engines would download
# are never used), as with npm 11 on the CI machine, which runs none unless approved.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
ARG BUILD_NUMBER=0
RUN BUILD_NUMBER=${BUILD_NUMBER} npm run build && npm prune --omit=dev --no-audit --no-fund

# Run stage: compiled code, production dependencies (the prisma CLI among them: the service runs
# `prisma migrate deploy` at start, which reads prisma.config.ts and prisma/migrations), the
# migrations, the demo dataset (prisma/demo-dataset.json) and the build's version record.
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/package.json /app/package-lock.json /app/prisma.config.ts /app/build-info.json ./
# The CLI's config loads its two patches of pg and @prisma/adapter-pg from the sources.
COPY --from=build /app/src/patches ./src/patches
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
# The standard type catalog (catalog/standard/*.json), read and checked at start.
COPY --from=build /app/catalog ./catalog
# DATA_DIR for the embedded database, when the image runs without DATABASE_URL (a demo only).
RUN mkdir /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Applies pending migrations, then serves (set MIGRATE_ON_START=false to migrate separately).
# Import a dataset: npm run import:prod -- <file> (or - for standard input); see README.md.
CMD ["node", "dist/src/main.js"]
