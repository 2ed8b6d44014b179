# Build stage: install everything, generate the Prisma client, compile, then drop dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
ARG BUILD_NUMBER=0
RUN BUILD_NUMBER=${BUILD_NUMBER} npm run build && npm prune --omit=dev

# Run stage: compiled code, production dependencies, migrations and the Prisma config.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/package.json /app/package-lock.json /app/prisma.config.ts /app/build-info.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
USER node
EXPOSE 3000
# Applies pending migrations, then serves (set MIGRATE_ON_START=false to migrate separately).
CMD ["node", "dist/src/main.js"]
