# The Tidemark image: dependencies installed and the code built inside the image (never the host's
# node_modules or dist/), run as the unprivileged `node` user. Engines are not managed in a container
# (STACK_MANAGE=false): point the settings at them (docker-compose.yml does).
# Production (TIDEMARK_ENV, for the roles and the CLI): give AUTH_JWT_SECRET or AUTH_JWKS_URL, verified TLS and passwords
# (or ALLOW_INSECURE_TRANSPORT=true), docs/operators.md "Deploying safely".
#   docker build -t tidemark . && docker run -e AUTH_JWT_SECRET=... -e MYSQL_HOST=... tidemark
#   docker run --rm tidemark npx tidemark --help     # the operator CLI (compiled; node_modules/.bin/tidemark)
# test/container/image.e2e.spec.ts replays this file's instructions into folders (no Docker engine needed): it
# understands only the instructions and flags used here, so keep to them or teach it (docs/operators.md, Container).
FROM node:22-bookworm-slim AS build
WORKDIR /app
# patches/ before `npm ci`: its postinstall (patch-package) patches kafkajs, and runs only here.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
# The runtime has no src/ and no tsx loader in use: bin/tidemark.cjs runs the compiled CLI, linked where npx
# looks first. STACK_DIR (.tidemark: the development token secret, an embedded ClickHouse's data) is made
# here and copied owned by `node`, so the runtime stage needs no RUN.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && ln -s ../../bin/tidemark.cjs node_modules/.bin/tidemark && mkdir .tidemark

FROM node:22-bookworm-slim
# TIDEMARK_ENV explicitly: the server is production without it, but the CLI (a local tool) would be development,
# which refuses the 0.0.0.0 hosts below.
ENV NODE_ENV=production \
    TIDEMARK_ENV=production \
    STACK_MANAGE=false \
    HTTP_HOST=0.0.0.0 \
    OPS_HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/.tidemark ./.tidemark
USER node
EXPOSE 4000 9464
CMD ["node", "dist/src/main.js"]
