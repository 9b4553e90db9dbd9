import { REFERENCE_MESSAGES } from '@studio/contracts';
import sharp from 'sharp';
import { tinyPng } from './support/images';
import { startTestApp, TestApp } from './test-app';

const HTML = '<html><body><script>alert(document.cookie)</script></body></html>';

/** True when the EXIF block has a GPS IFD pointer (tag 0x8825, either byte order). */
function hasGpsPointer(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const le = Buffer.from([0x25, 0x88]);
  const be = Buffer.from([0x88, 0x25]);
  return exif.includes(le) || exif.includes(be);
}

describe('uploads are re-encoded', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.organizationWithUser()).token;
  });
  afterAll(() => t.close());

  const upload = (bytes: Buffer, name: string) => t.http.post('/api/admin/upload').set('token', token).attach('file', bytes, name);

  it('stores a GIF+HTML polyglot as a plain GIF, without the HTML', async () => {
    const gif = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#3a7' } }).gif().toBuffer();
    const polyglot = Buffer.concat([gif, Buffer.from(HTML)]);
    expect(polyglot.subarray(0, 6).toString()).toBe('GIF89a');

    const res = await upload(polyglot, 'cat.gif').expect(200);
    const served = await t.http.get(res.body.url).expect(200);
    const stored = served.body as Buffer;
    expect(served.headers['content-type']).toBe('image/gif');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(stored.includes(Buffer.from('<script'))).toBe(false);
    expect(stored.includes(Buffer.from('<html'))).toBe(false);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'gif', width: 4, height: 3 });
    // The size on record is the stored file's.
    expect(Number(served.headers['content-length'])).toBe(stored.length);
  });

  it('drops EXIF with its GPS position from a JPEG', async () => {
    const jpeg = await sharp({ create: { width: 6, height: 4, channels: 3, background: '#c85' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 44/1 54/1', GPSLongitudeRef: 'W', GPSLongitude: '73/1 59/1 8/1' },
      })
      .toBuffer();
    expect(hasGpsPointer((await sharp(jpeg).metadata()).exif)).toBe(true);

    const res = await upload(jpeg, 'studio.jpg').expect(200);
    const served = (await t.http.get(res.body.url).expect(200)).body as Buffer;
    const metadata = await sharp(served).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 6, height: 4 });
    expect(metadata.exif).toBeUndefined();
    expect(served.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('refuses a file that only starts like an image', async () => {
    const fake = Buffer.concat([Buffer.from('GIF89a'), Buffer.from(HTML)]);
    const res = await upload(fake, 'fake.gif');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ message: 'The image could not be read. Upload a PNG, JPEG or GIF image.' });
  });

  it('refuses an image of too many pixels before decoding it', async () => {
    // 10000 x 10000 of one colour: a few kilobytes of PNG, 100 megapixels once decoded.
    const bomb = await sharp({ create: { width: 10000, height: 10000, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(bomb.length).toBeLessThan(4.5 * 1024 * 1024);
    const res = await upload(bomb, 'bomb.png');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Images can be at most 50 megapixels.');
  });
});

describe('waiver document_url', () => {
  let t: TestApp;
  let a: { token: string };
  let b: { token: string };
  beforeAll(async () => {
    t = await startTestApp();
    a = await t.organizationWithUser();
    b = await t.organizationWithUser();
  });
  afterAll(() => t.close());

  const createWaiver = (token: string, document_url: string) =>
    t.http.post('/api/admin/waiver').set('token', token).send({ name: 'Studio waiver', body: '', document_url });

  it.each([
    ['an http:// link', 'http://studio.example.com/waiver.pdf'],
    ['a link to another host without a scheme', '//evil.example/waiver.pdf'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path that is not an upload', '/admin/courses'],
  ])('refuses %s with 400 and a clear message, saving nothing', async (_kind, url) => {
    const res = await createWaiver(a.token, url);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ document_url: REFERENCE_MESSAGES.documentUrl });
    const list = await t.http.get('/api/admin/waiver?limit=1000&page=1').set('token', a.token).expect(200);
    expect(list.body.waivers).toEqual([]);
  });

  it("takes an https:// link or the organization's own upload, not another organization's", async () => {
    const https = await createWaiver(a.token, 'https://studio.example.com/waiver.pdf').expect(201);
    expect(https.body.document_url).toBe('https://studio.example.com/waiver.pdf');

    const own = await t.http.post('/api/admin/upload').set('token', a.token).attach('file', tinyPng(), 'waiver.png').expect(200);
    const uploaded = await createWaiver(a.token, own.body.url).expect(201);
    expect(uploaded.body.document_url).toBe(own.body.url);

    const foreign = await createWaiver(b.token, own.body.url);
    expect(foreign.status).toBe(404);
  });
});
