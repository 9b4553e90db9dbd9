/**
 * The page tests' stand-in for the store: a fetch that reads what a page asked (the Request the
 * typed client sends: method, path with its query, JSON body, headers) and answers JSON as a real
 * Response, as the client needs.
 */

/** One call as the tests read it; headers lower-case, as fetch's Headers gives them. */
export interface StoreCall<B = unknown> {
  method: string;
  /** Path and query, as the page's routes name them. */
  url: string;
  /** The JSON body parsed (undefined without one). */
  body: B | undefined;
  headers: Record<string, string>;
}

/** An answer: its status and JSON body. */
export interface StoreReply {
  status: number;
  body: unknown;
}

/**
 * A JSON answer whose body reads in one turn, as a stub's did (a test with fake timers gives each
 * tick only a few turns; a real body stream takes more).
 */
function jsonResponse({ status, body }: StoreReply): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { 'content-type': 'application/json' } });
  return Object.assign(response, {
    text: () => Promise.resolve(text),
    json: () => Promise.resolve(JSON.parse(text) as unknown),
  });
}

/**
 * Replaces global fetch with `reply`, which answers each call. The call, its body included, is
 * recorded at once (the test environment's Request keeps the body it was made with: `sentBody`), as
 * a test reads it right after the page sent it. Returns the calls made (`B`: the bodies' shape, as
 * the test reads them).
 */
export function mockStore<B = unknown>(
  reply: (call: StoreCall<B>) => StoreReply | Promise<StoreReply>,
): StoreCall<B>[] {
  const calls: StoreCall<B>[] = [];
  global.fetch = jest.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    const url = new URL(request.url);
    const sent = (request as Request & { sentBody?: string }).sentBody;
    const call: StoreCall<B> = {
      method: request.method,
      url: `${url.pathname}${url.search}`,
      body: sent ? (JSON.parse(sent) as B) : undefined,
      headers: Object.fromEntries(request.headers.entries()),
    };
    calls.push(call);
    const answer = reply(call);
    return answer instanceof Promise ? answer.then(jsonResponse) : Promise.resolve(jsonResponse(answer));
  }) as typeof fetch;
  return calls;
}
