import { startFakeS3 } from './support/fake-s3';
import { tinyPng } from './support/images';
import { validCourse } from './support/catalog-fixtures';
import { startTestApp } from './test-app';

describe('uploads on S3-compatible storage', () => {
  it('stores the image in the bucket, serves it back through the API, and attaches it to a course', async () => {
    const s3 = await startFakeS3('studio-media');
    const t = await startTestApp({
      S3_BUCKET: 'studio-media',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'test-key',
      S3_SECRET_ACCESS_KEY: 'test-secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    try {
      const { token, organization } = await t.organizationWithUser();
      const upload = await t.http.post('/api/admin/upload').set('token', token).attach('file', tinyPng(), 'kiln.png').expect(200);
      const [key] = [...s3.objects.keys()];
      expect(key).toMatch(new RegExp(`^${organization.id}/[0-9a-f-]{36}\\.png$`));
      expect(s3.objects.get(key)).toMatchObject({ type: 'image/png' });
      const stored = s3.objects.get(key)!.body;
      expect(stored.subarray(0, 8)).toEqual(tinyPng().subarray(0, 8));
      expect(s3.requests.every((r) => r.signed)).toBe(true);

      const served = await t.http.get(upload.body.url).expect(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(served.body, stored)).toBe(0);

      const location = await t.http.post('/api/admin/location').set('token', token).send({ address: '1 Kiln St', timezone: 'UTC' });
      const instructor = await t.http.post('/api/admin/instructor').set('token', token).send({ first_name: 'Ada' });
      await t.http
        .post('/api/admin/activities')
        .set('token', token)
        .send(validCourse({ location_id: location.body.location_id, instructor_id: instructor.body.instructor_id, images: [upload.body.url] }))
        .expect(201);

      // An object gone from the bucket is a 404, not a 500.
      s3.objects.clear();
      await t.http.get(upload.body.url).expect(404);
    } finally {
      await t.close();
      await s3.close();
    }
  });
});
