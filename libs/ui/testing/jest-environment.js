/**
 * jsdom with Node's own fetch primitives. jsdom has no Request, Response or Headers, and the typed
 * client (openapi-fetch) builds a Request for every call; its AbortSignal and FormData must be the
 * ones Node's Request accepts, so those come from Node as well.
 */
const { TestEnvironment } = require('jest-environment-jsdom');

class FetchJsdomEnvironment extends TestEnvironment {
  constructor(...args) {
    super(...args);
    const node = {
      fetch,
      Request,
      Response,
      Headers,
      FormData,
      Blob,
      File,
      AbortController,
      AbortSignal,
      ReadableStream,
      TextEncoder,
      TextDecoder,
      structuredClone,
    };
    Object.assign(this.global, node);
  }
}

module.exports = FetchJsdomEnvironment;
