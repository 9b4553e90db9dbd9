# One image for every role: api, worker, and the static bundles copied into the web image.
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
# The media and outbox volumes take these folders' owner when first mounted.
RUN mkdir -p /data/media /data/outbox && chown node:node /data/media /data/outbox
USER node
EXPOSE 3000
CMD ["node", "backend/dist/main.js"]

FROM nginx:1.27-alpine AS web
# Origins of remotes served from other hosts (see MFE_MANIFEST_JSON), for the CSP; empty: all here.
ENV MFE_REMOTE_ORIGINS=""
# A template: the image's entrypoint writes conf.d/default.conf with ${MFE_REMOTE_ORIGINS} filled in.
RUN rm -f /etc/nginx/conf.d/default.conf
COPY deploy/nginx.conf /etc/nginx/templates/default.conf.template
COPY deploy/security-headers.conf /etc/nginx/snippets/security-headers.conf
COPY --from=build /app/shell/dist /usr/share/nginx/html
COPY --from=build /app/mfe-courses/dist /usr/share/nginx/html/mfe/courses
COPY --from=build /app/mfe-orders/dist /usr/share/nginx/html/mfe/orders
COPY --from=build /app/mfe-students/dist /usr/share/nginx/html/mfe/students
COPY --from=build /app/mfe-integrations/dist /usr/share/nginx/html/mfe/integrations
