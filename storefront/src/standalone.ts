/**
 * The online store on its own (issue 21, "deployable on its own like the remotes"): a Node server
 * without dependencies (node:http, global fetch) that serves the store's pages, its client files
 * and the API paths the pages call, reading the store from the API's public Storefront API at
 * STORE_API_URL. Built by webpack.config.js into dist/standalone.js; run `node dist/standalone.js`
 * (the Dockerfile's `storefront` target). The API process serves the same pages by default
 * (backend/src/web/storefront-web.ts).
 *
 * PORT (8080), STORE_API_URL (required), PUBLIC_STORE_URL (the store's public origin for links and
 * og:url; default the request's own), STORE_FRAME_ORIGINS (signing pages' origins the checkout
 * may frame besides its own, e.g. DocuSeal's).
 */
import { createServer } from 'node:http';
import { storefrontApp, readConfig } from './standalone/app';

const config = readConfig(process.env, __dirname);
if ('error' in config) {
  console.error(`The storefront cannot start: ${config.error}`);
  process.exit(1);
}
const server = createServer({ keepAliveTimeout: 5000, requestTimeout: 60000 }, storefrontApp(config));
server.listen(config.port, () => {
  console.log(
    `Storefront listening on port ${config.port}, reading the store from ${config.apiUrl}${config.publicUrl ? `, public at ${config.publicUrl}` : ''}`,
  );
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
