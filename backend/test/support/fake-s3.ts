import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A local stand-in for an S3-compatible service, path-style (`/<bucket>/<key>`): PUT, GET and
 * DELETE of objects, and S3's XML error for a missing key. It checks that requests are signed.
 */
export async function startFakeS3(bucket: string) {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: { method: string; path: string; signed: boolean }[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://s3').pathname);
      const signed = /^AWS4-HMAC-SHA256 Credential=test-key\//.test(req.headers.authorization ?? '');
      requests.push({ method: req.method ?? '', path, signed });
      if (!signed) return res.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
      if (!path.startsWith(`/${bucket}/`)) return res.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
      const key = path.slice(bucket.length + 2);
      if (req.method === 'PUT') {
        objects.set(key, { body: Buffer.concat(chunks), type: String(req.headers['content-type'] ?? 'application/octet-stream') });
        return res.writeHead(200, { ETag: '"etag"' }).end();
      }
      if (req.method === 'GET') {
        const object = objects.get(key);
        if (!object) {
          return res
            .writeHead(404, { 'Content-Type': 'application/xml' })
            .end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
        }
        return res.writeHead(200, { 'Content-Type': object.type, 'Content-Length': object.body.length }).end(object.body);
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        return res.writeHead(204).end();
      }
      res.writeHead(405).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
