// The bench's HTTP client: node:http on a keep-alive agent, the body read as one Buffer. Every HTTP
// contender (the API, the lists floor, the seats HTTP control) is measured through this same client.
// Not `fetch`: on this machine its WHATWG streams cost 0.13-0.3 ms per request on the bench's own
// side (a loopback GET of a small JSON: fetch 0.40-0.63 ms median, this client 0.26-0.34 ms, the
// same server), time that is not the server's and that the targets do not bound.
import { Agent, request as httpRequest } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/**
 * One request; answers { status, body } with the body a Buffer (`json()` parses it).
 * `body` is sent as is (a string or Buffer) with its content-length; headers as given.
 */
export function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    // A sized body, as fetch sends one (not chunked).
    const sized = body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) };
    const req = httpRequest(url, { method, headers: sized, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        resolve({ status: res.statusCode, ok: res.statusCode >= 200 && res.statusCode < 300, body: buffer, json: () => JSON.parse(buffer.toString('utf8')) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
