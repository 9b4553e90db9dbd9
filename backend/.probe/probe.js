require('reflect-metadata');
const net = require('node:net');
const { createApp } = require('/work/wt-openapi/backend/dist/app.factory');
const { loadConfig } = require('/work/wt-openapi/backend/dist/config/config.schema');
const raw = (port, text) => new Promise((res) => { const s = net.connect(port, '127.0.0.1'); let out=''; s.on('data', d => out += d); s.on('close', () => res(out)); s.on('error', e => res('ERR '+e.message)); s.write(text); setTimeout(()=>s.end(), 500); });
(async () => {
  const config = { ...loadConfig({ PGLITE_DATA_DIR: 'memory://probe' }), SEED_DEMO: false, SERVE_WEB: false, RUN_WORKER: false, QUEUE_MODE: 'in-process', LOG_LEVEL: 'silent' };
  const { app, close } = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const port = app.getHttpServer().address().port;
  const cases = {
    nul: 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Fuzz: a\0b\r\nConnection: close\r\n\r\n',
    cr: 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Fuzz: a\rb\r\nConnection: close\r\n\r\n',
    lf: 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Fuzz: a\nb\r\nConnection: close\r\n\r\n',
    lfcolon: 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Fuzz: a\nb: c\r\nConnection: close\r\n\r\n',
    nulname: 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-F\0uzz: ab\r\nConnection: close\r\n\r\n',
    tokennul: 'GET /api/health HTTP/1.1\r\nHost: x\r\ntoken: ab\0\r\nConnection: close\r\n\r\n',
    utf8: 'GET /api/admin/order/%C3%28 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    utf8q: 'GET /api/admin/orders?search=%C3%28 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  };
  for (const [k, v] of Object.entries(cases)) console.log('==', k, JSON.stringify(await raw(port, v)));
  await close();
})();
