import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { startTestApp, TestApp } from './test-app';

/** A local stand-in for the chat service's incoming webhook: records what it is sent. */
async function fakeWebhook(failFirst = 0) {
  const received: unknown[] = [];
  let failures = failFirst;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (failures > 0) {
        failures -= 1;
        res.writeHead(500).end('busy');
        return;
      }
      received.push({ path: req.url, type: req.headers['content-type'], body: JSON.parse(body) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/XXX`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function eventually(check: () => boolean, timeoutMs = 10000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('chat alerts', () => {
  it('posts a new-course alert to the webhook from the worker, retrying a failed delivery', async () => {
    const hook = await fakeWebhook(1);
    const t: TestApp = await startTestApp({ SLACK_WEBHOOK_URL: hook.url, RUN_WORKER: 'true' });
    try {
      const { token } = await t.organizationWithUser();
      const res = await t.http.post('/api/slack-alert-new-course').set('token', token).send({ message: 'Raku weekend by Alpha Ceramics' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ queued: true });
      await eventually(() => hook.received.length === 1, 15000);
      expect(hook.received[0]).toEqual({
        path: '/services/T000/B000/XXX',
        type: 'application/json',
        body: { text: ':tada: New course: Raku weekend by Alpha Ceramics' },
      });
      const bad = await t.http.post('/api/slack-alert').set('token', token).send({ message: '' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ message: 'A message is required.' });
    } finally {
      await t.close();
      await hook.close();
    }
  });

  it('is a no-op without a webhook', async () => {
    const t = await startTestApp();
    try {
      const { token } = await t.organizationWithUser();
      const res = await t.http.post('/api/slack-alert').set('token', token).send({ message: 'hello' }).expect(202);
      expect(res.body).toEqual({ queued: false });
      await t.http.post('/api/slack-alert').send({ message: 'hello' }).expect(401);
    } finally {
      await t.close();
    }
  });
});
