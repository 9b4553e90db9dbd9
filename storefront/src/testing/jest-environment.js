/**
 * The storefront tests' environment: libs/ui's jsdom with Node's fetch primitives (the typed client
 * builds a Request for every call), whose Request also keeps the text body it was made with
 * (`sentBody`), so a test reads what a page sent as soon as it is sent (a Request's own body is a
 * stream, read some turns later).
 */
const FetchJsdomEnvironment = require('../../../libs/ui/testing/jest-environment.js');

class StorefrontEnvironment extends FetchJsdomEnvironment {
  constructor(...args) {
    super(...args);
    const NodeRequest = this.global.Request;
    this.global.Request = class Request extends NodeRequest {
      constructor(input, init) {
        super(input, init);
        this.sentBody = typeof init?.body === 'string' ? init.body : undefined;
      }
    };
  }
}

module.exports = StorefrontEnvironment;
