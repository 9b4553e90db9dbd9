# Images: `app` (api and worker), `web` (the shell, proxying each remote to its own service),
# `remote` (one remote's static bundle, built alone: --build-arg REMOTE=orders) and `storefront` (the
# online store's standalone server, built alone). A team releases its remote by building and
# deploying its `remote` image; the shell and the other remotes stay as they are. The store likewise.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npx nx run-many -t build --output-style=static && npm prune --omit=dev

FROM node:20-bookworm-slim AS app
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/libs/contracts/package.json ./libs/contracts/package.json
COPY --from=build /app/libs/contracts/dist ./libs/contracts/dist
COPY --from=build /app/backend/package.json ./backend/package.json
COPY --from=build /app/backend/dist ./backend/dist
# The online store's server render and client files: the API process serves /s/ and /s-assets/.
COPY --from=build /app/storefront/dist ./storefront/dist
# The media and outbox volumes take these folders' owner when first mounted.
RUN mkdir -p /data/media /data/outbox && chown node:node /data/media /data/outbox
USER node
EXPOSE 3000
CMD ["node", "backend/dist/main.js"]

FROM nginx:1.27-alpine AS web
# Origins of remotes served from other hosts (see MFE_MANIFEST_JSON), for the CSP; empty: all here.
ENV MFE_REMOTE_ORIGINS=""
# The image's entrypoint exports NGINX_LOCAL_RESOLVERS (from /etc/resolv.conf) for the template:
# the remotes' services are resolved when asked for, so one being released does not stop this one.
ENV NGINX_ENTRYPOINT_LOCAL_RESOLVERS=1
# A template: the image's entrypoint writes conf.d/default.conf with the variables above filled in.
RUN rm -f /etc/nginx/conf.d/default.conf
COPY deploy/nginx.conf /etc/nginx/templates/default.conf.template
COPY deploy/security-headers.conf /etc/nginx/snippets/security-headers.conf
COPY --from=build /app/shell/dist /usr/share/nginx/html

# One remote, built from the repository alone (its workspace and the libs it compiles in).
FROM node:20-bookworm-slim AS remote-build
ARG REMOTE
WORKDIR /app
COPY . .
RUN test -n "$REMOTE" && test -d "mfe-$REMOTE" && npm ci --no-audit --no-fund && npm run build -w "@studio/mfe-$REMOTE"

FROM nginx:1.27-alpine AS remote
ARG REMOTE
ENV MFE_REMOTE=${REMOTE}
RUN rm -f /etc/nginx/conf.d/default.conf
COPY deploy/remote.nginx.conf /etc/nginx/templates/default.conf.template
COPY --from=remote-build /app/mfe-${REMOTE}/dist /usr/share/nginx/html/mfe/${REMOTE}

# The online store on its own (issue 21), built from the repository alone (its workspace and the
# contracts it compiles in): the standalone server, its server render and client files in one folder.
FROM node:20-bookworm-slim AS storefront-build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build -w @studio/storefront

# Serves /s/ and /s-assets/, and passes the API paths its pages call to STORE_API_URL (required).
# No node_modules: dist/standalone.js needs only Node.
FROM node:20-bookworm-slim AS storefront
ENV NODE_ENV=production PORT=8080
WORKDIR /app
COPY --from=storefront-build /app/storefront/dist ./storefront/dist
USER node
EXPOSE 8080
CMD ["node", "storefront/dist/standalone.js"]
