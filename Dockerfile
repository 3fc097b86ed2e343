# The Tidemark image: dependencies installed and the code built inside the image (never the host's
# node_modules or dist/), run as the unprivileged `node` user. Engines are not managed in a container
# (STACK_MANAGE=false): point the settings at them (docker-compose.yml does).
# Production is the default (TIDEMARK_ENV): give AUTH_JWT_SECRET or AUTH_JWKS_URL, verified TLS and passwords
# (or ALLOW_INSECURE_TRANSPORT=true), docs/operators.md "Deploying safely".
#   docker build -t tidemark . && docker run -e AUTH_JWT_SECRET=... -e MYSQL_HOST=... tidemark
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    STACK_MANAGE=false \
    HTTP_HOST=0.0.0.0 \
    OPS_HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# STACK_DIR (the development token secret, an embedded ClickHouse's data) must be writable by `node`.
RUN mkdir -p /app/.tidemark && chown node:node /app/.tidemark
USER node
EXPOSE 4000 9464
CMD ["node", "dist/src/main.js"]
