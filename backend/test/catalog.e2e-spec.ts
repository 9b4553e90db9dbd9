import { COURSE_CREATE_CASES, COURSE_MESSAGES, COURSE_UPDATE_CASES, REFERENCE_MESSAGES } from '@studio/contracts';
import { courseRefs, validCourse, validCourseEdit } from './support/catalog-fixtures';
import sharp from 'sharp';
import { tinyGif, tinyJpeg, tinyPng } from './support/images';
import { startTestApp, TestApp } from './test-app';

/** Replaces the test's placeholder image URLs with images really uploaded by the caller. */
function withRealImages(patch: Record<string, unknown>, images: string[]) {
  if (!Array.isArray(patch.images) || patch.images.length === 0) return patch;
  return { ...patch, images: patch.images.map((_, i) => images[i % images.length]) };
}

describe('catalog: courses, reference data and images', () => {
  let t: TestApp;
  let a: { token: string; refs: Awaited<ReturnType<typeof courseRefs>> };
  let b: { token: string; refs: Awaited<ReturnType<typeof courseRefs>> };

  beforeAll(async () => {
    t = await startTestApp({ MEDIA_DIR: `/tmp/studio-media-test-${process.pid}` });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, refs: await courseRefs(t, ownerA.token, 11) };
    b = { token: ownerB.token, refs: await courseRefs(t, ownerB.token) };
  });
  afterAll(() => t.close());

  describe('creating a course: every rule of spec 000 §5, same messages as the form', () => {
    it.each(COURSE_CREATE_CASES)('$name', async ({ patch, errors }) => {
      const body = { ...validCourse(a.refs), ...withRealImages(patch, a.refs.images) };
      const res = await t.http.post('/api/admin/activities').set('token', a.token).send(body);
      if (Object.keys(errors).length === 0) {
        expect(res.status).toBe(201);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual(errors);
      }
    });

    it('changes nothing when refused', async () => {
      const before = (await t.http.get('/api/admin/activities').set('token', a.token)).body.activities.length;
      await t.http.post('/api/admin/activities').set('token', a.token).send({ ...validCourse(a.refs), capacity: 1 }).expect(400);
      const after = (await t.http.get('/api/admin/activities').set('token', a.token)).body.activities.length;
      expect(after).toBe(before);
    });

    it.each([
      ['location', 'location_id', 'Location not found'],
      ['instructor', 'instructor_id', 'Instructor not found'],
    ] as const)("refuses another organization's %s with 404", async (_what, field, message) => {
      const res = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(a.refs), [field]: b.refs[field] });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(message);
    });

    it("refuses another organization's image and waiver with 404", async () => {
      const image = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(a.refs), images: [b.refs.images[0]] });
      expect(image.status).toBe(404);
      expect(image.body.message).toBe('Image not found');
      const waiverB = await t.http.post('/api/admin/waiver').set('token', b.token).send({ name: 'Glass waiver', body: 'I accept the risks.' });
      const waiver = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(a.refs), selected_waiver: waiverB.body.template_id });
      expect(waiver.status).toBe(404);
    });
  });

  describe('reading, listing and editing', () => {
    let courseId: string;
    beforeAll(async () => {
      const waiver = await t.http.post('/api/admin/waiver').set('token', a.token).send({ name: 'Studio waiver', body: 'Clay is messy.' }).expect(201);
      const res = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({
          ...validCourse(a.refs),
          name: 'Raku firing weekend',
          images: a.refs.images.slice(0, 2),
          selected_waiver: waiver.body.template_id,
          checkoutFormFields: [
            { id: 'f1', type: 'name', label: 'Full name', required: true },
            { id: 'f2', type: 'select', label: 'Apron size', options: [{ id: 'o1', value: 'Option 1' }], description: 'See [sizes](https://clay.example/sizes)' },
          ],
          formCollectionType: 'ticket',
        })
        .expect(201);
      courseId = res.body.activity_id;
    });

    it('answers the read fields of both specs', async () => {
      const res = await t.http.get(`/api/admin/activities/${courseId}`).set('token', a.token).expect(200);
      expect(res.body).toMatchObject({
        activity_id: courseId,
        name: 'Raku firing weekend',
        capacity: 8,
        prices: [{ unit_price: 4500 }],
        images: a.refs.images.slice(0, 2),
        location_id: a.refs.location_id,
        instructor_id: a.refs.instructor_id,
        Location: { timezone: { timeZoneId: 'America/New_York' } },
        level: 'Beginner',
        category_id: 4,
        material: 'Ceramics',
        cancel_policy_id: 3,
        reschedule_policy_id: 4,
        activity_type: 'scheduled',
        form_collection_type: 'ticket',
        default_days: 1,
        default_days_apart: 1,
        default_daily_mins: 60,
        default_start_time: '12:00',
        RequiredTemplates: [{ name: 'Studio waiver' }],
        Event: [],
        syncMappings: [],
        listed: false,
        has_events: false,
      });
      expect(res.body.RequiredForm.fields.map((f: { field_key: string; type: string }) => [f.field_key, f.type])).toEqual([
        ['f1', 'name'],
        ['f2', 'select'],
      ]);
      expect(res.body.RequiredForm.fields[1].options).toEqual([{ id: 'o1', option_key: 'o1', value: 'Option 1' }]);
      expect(res.body.required_form_id).toEqual(expect.any(String));
    });

    it('lists the course with its Unlisted badge until a session is scheduled', async () => {
      const list = await t.http.get('/api/admin/activities').set('token', a.token).expect(200);
      const item = list.body.activities.find((c: { activity_id: string }) => c.activity_id === courseId);
      expect(item).toMatchObject({ name: 'Raku firing weekend', listed: false, image: a.refs.images[0], unit_price: 4500 });
      const other = await t.http.get('/api/admin/activities').set('token', b.token).expect(200);
      expect(other.body.activities.map((c: { activity_id: string }) => c.activity_id)).not.toContain(courseId);
    });

    it.each(COURSE_UPDATE_CASES)('edit rule: $name', async ({ patch, errors }) => {
      const body = { ...validCourseEdit(a.refs), ...withRealImages(patch, a.refs.images) };
      const res = await t.http.put(`/api/admin/activities/${courseId}`).set('token', a.token).send(body);
      if (Object.keys(errors).length === 0) expect(res.status).toBe(200);
      else {
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual(errors);
      }
    });

    it('saves an edit and shows it on the next read', async () => {
      await t.http
        .put(`/api/admin/activities/${courseId}`)
        .set('token', a.token)
        .send({ ...validCourseEdit(a.refs), name: 'Raku firing, two days', default_days: 2, autoEmail: 'See you at the kiln!' })
        .expect(200);
      const res = await t.http.get(`/api/admin/activities/${courseId}`).set('token', a.token).expect(200);
      expect(res.body).toMatchObject({
        name: 'Raku firing, two days',
        prices: [{ unit_price: 5200 }],
        capacity: 10,
        level: 'Intermediate',
        default_days: 2,
        auto_email: 'See you at the kiln!',
      });
      // Fields the edit did not send keep their values.
      expect(res.body.RequiredForm.fields).toHaveLength(2);
      expect(res.body.RequiredTemplates).toHaveLength(1);
    });

    it('Edit Course: removing every checkout field removes the form (an empty list is not ignored)', async () => {
      const created = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(a.refs), checkoutFormFields: [{ id: 'f1', type: 'email', label: 'Email' }] })
        .expect(201);
      const id = created.body.activity_id;
      const before = await t.http.get(`/api/admin/activities/${id}`).set('token', a.token).expect(200);
      expect(before.body.RequiredForm.fields).toHaveLength(1);
      // What the drawer sends: the form's id as read, and the builder's (now empty) list.
      const saved = await t.http
        .put(`/api/admin/activities/${id}`)
        .set('token', a.token)
        .send({ ...validCourseEdit(a.refs), required_form_id: before.body.required_form_id, checkoutFormFields: [] })
        .expect(200);
      expect(saved.body).toMatchObject({ RequiredForm: null, required_form_id: null });
      const after = await t.http.get(`/api/admin/activities/${id}`).set('token', a.token).expect(200);
      expect(after.body).toMatchObject({ RequiredForm: null, required_form_id: null });
      // Leaving the fields out of the body keeps the form as it is.
      await t.http
        .put(`/api/admin/activities/${id}`)
        .set('token', a.token)
        .send({ ...validCourseEdit(a.refs), checkoutFormFields: [{ id: 'f2', type: 'phone', label: 'Phone' }] })
        .expect(200);
      await t.http.put(`/api/admin/activities/${id}`).set('token', a.token).send(validCourseEdit(a.refs)).expect(200);
      const kept = await t.http.get(`/api/admin/activities/${id}`).set('token', a.token).expect(200);
      expect(kept.body.RequiredForm.fields.map((f: { label: string }) => f.label)).toEqual(['Phone']);
    });

    it("editing one course's checkout form never changes another course that uses the same form", async () => {
      const first = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(a.refs), name: 'Glaze lab', checkoutFormFields: [{ id: 'f1', type: 'name', label: 'Full name' }] })
        .expect(201);
      const firstRead = await t.http.get(`/api/admin/activities/${first.body.activity_id}`).set('token', a.token).expect(200);
      const formId = firstRead.body.required_form_id;
      // The second course attaches the first one's form.
      const second = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(a.refs), name: 'Glaze lab II', required_form_id: formId })
        .expect(201);
      const secondId = second.body.activity_id;
      const secondRead = await t.http.get(`/api/admin/activities/${secondId}`).set('token', a.token).expect(200);
      expect(secondRead.body.RequiredForm.fields.map((f: { label: string }) => f.label)).toEqual(['Full name']);

      await t.http
        .put(`/api/admin/activities/${secondId}`)
        .set('token', a.token)
        .send({
          ...validCourseEdit(a.refs),
          required_form_id: formId,
          checkoutFormFields: [{ id: 'f1', type: 'name', label: 'Name on the apron' }],
        })
        .expect(200);
      const labels = async (id: string) =>
        (await t.http.get(`/api/admin/activities/${id}`).set('token', a.token)).body.RequiredForm?.fields.map((f: { label: string }) => f.label) ?? null;
      expect(await labels(secondId)).toEqual(['Name on the apron']);
      expect(await labels(first.body.activity_id)).toEqual(['Full name']);

      // Removing the first course's fields leaves the second course's form alone.
      await t.http
        .put(`/api/admin/activities/${first.body.activity_id}`)
        .set('token', a.token)
        .send({ ...validCourseEdit(a.refs), required_form_id: formId, checkoutFormFields: [] })
        .expect(200);
      expect(await labels(first.body.activity_id)).toBeNull();
      expect(await labels(secondId)).toEqual(['Name on the apron']);
    });

    it('Edit Course: a free course re-saves without a price and keeps price 0', async () => {
      const created = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(a.refs), name: 'Open studio night', priceType: 'free', price: undefined })
        .expect(201);
      const id = created.body.activity_id;
      const { price: _price, ...withoutPrice } = validCourseEdit(a.refs);
      const saved = await t.http
        .put(`/api/admin/activities/${id}`)
        .set('token', a.token)
        .send({ ...withoutPrice, priceType: 'free', capacity: 30 })
        .expect(200);
      expect(saved.body).toMatchObject({ price_type: 'free', prices: [{ unit_price: 0 }], capacity: 30 });
      // What GET answers can be sent back as it is (price 0).
      await t.http.put(`/api/admin/activities/${id}`).set('token', a.token).send({ ...withoutPrice, priceType: 'free', price: 0 }).expect(200);
      // A price sent with a free course is not stored.
      const ignored = await t.http
        .put(`/api/admin/activities/${id}`)
        .set('token', a.token)
        .send({ ...withoutPrice, priceType: 'free', price: 2500 })
        .expect(200);
      expect(ignored.body.prices).toEqual([{ unit_price: 0 }]);
      // Turning it into a standard course needs a price.
      const standard = await t.http.put(`/api/admin/activities/${id}`).set('token', a.token).send({ ...withoutPrice, priceType: 'standard' });
      expect(standard.status).toBe(400);
      expect(standard.body.errors).toEqual({ price: COURSE_MESSAGES.price });
      const after = await t.http.get(`/api/admin/activities/${id}`).set('token', a.token).expect(200);
      expect(after.body).toMatchObject({ price_type: 'free', prices: [{ unit_price: 0 }] });
    });

    it('saves images on their own, in order, and refuses an 11th image', async () => {
      const ten = a.refs.images.slice(0, 10).reverse();
      const saved = await t.http.put(`/api/admin/activities/${courseId}`).set('token', a.token).send({ images: ten }).expect(200);
      expect(saved.body.images).toEqual(ten);
      const eleven = await t.http.put(`/api/admin/activities/${courseId}`).set('token', a.token).send({ images: a.refs.images });
      expect(eleven.status).toBe(400);
      expect(eleven.body.errors).toEqual({ images: COURSE_MESSAGES.imagesMax });
      const none = await t.http.put(`/api/admin/activities/${courseId}`).set('token', a.token).send({ images: [] });
      expect(none.body.errors).toEqual({ images: COURSE_MESSAGES.imagesRequired });
      const after = await t.http.get(`/api/admin/activities/${courseId}`).set('token', a.token);
      expect(after.body.images).toEqual(ten);
    });

    it("answers 404 for another organization's course", async () => {
      await t.http.get(`/api/admin/activities/${courseId}`).set('token', b.token).expect(404);
      await t.http.put(`/api/admin/activities/${courseId}`).set('token', b.token).send(validCourseEdit(b.refs)).expect(404);
      await t.http.put(`/api/admin/activities/${courseId}`).set('token', b.token).send({ images: b.refs.images }).expect(404);
      await t.http.get(`/api/admin/activities/${courseId}/sessions?include_past=true&limit=10000`).set('token', b.token).expect(404);
    });
  });

  describe('appointment courses', () => {
    it('are listed from the start and keep their scheduling settings', async () => {
      const res = await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({
          ...validCourse(a.refs),
          name: 'Private wheel lesson',
          activity_type: 'appointment',
          single_party: true,
          buffer_before_mins: 15,
          buffer_after_mins: 240,
          min_notice_mins: 10080,
          start_time_increments_mins: 60,
          duration_mins: 90,
        })
        .expect(201);
      const course = await t.http.get(`/api/admin/activities/${res.body.activity_id}`).set('token', a.token).expect(200);
      expect(course.body).toMatchObject({
        activity_type: 'appointment',
        single_party: true,
        status: 'listed',
        listed: true,
        buffer_before_mins: 15,
        buffer_after_mins: 240,
        min_notice_mins: 10080,
        start_time_increments_mins: 60,
        duration_mins: 90,
      });
    });
  });

  describe('locations, instructors and waivers', () => {
    it('validates with messages and keeps each organization to its own rows', async () => {
      const bad = await t.http.post('/api/admin/location').set('token', a.token).send({ address: '', timezone: 'Nowhere/City' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ address: REFERENCE_MESSAGES.addressRequired, timezone: REFERENCE_MESSAGES.timezone });
      const renamed = await t.http
        .put(`/api/admin/location/${a.refs.location_id}`)
        .set('token', a.token)
        .send({ name: 'Annex', address: '14 Kiln Street', timezone: 'America/Chicago' })
        .expect(200);
      expect(renamed.body).toMatchObject({ name: 'Annex', timezone: 'America/Chicago', online: false });
      // Marked online, then read back from the list; a non-boolean is refused with its message.
      await t.http
        .put(`/api/admin/location/${a.refs.location_id}`)
        .set('token', a.token)
        .send({ name: 'Annex', address: '14 Kiln Street', timezone: 'America/Chicago', online: true })
        .expect(200);
      const listA = await t.http.get('/api/admin/location').set('token', a.token).expect(200);
      expect(listA.body.locations.find((l: { location_id: string }) => l.location_id === a.refs.location_id)).toMatchObject({
        online: true,
      });
      const notBool = await t.http
        .put(`/api/admin/location/${a.refs.location_id}`)
        .set('token', a.token)
        .send({ address: '14 Kiln Street', timezone: 'UTC', online: 'yes' });
      expect(notBool.status).toBe(400);
      expect(notBool.body.errors).toEqual({ online: REFERENCE_MESSAGES.onlineToggle });
      await t.http
        .put(`/api/admin/location/${a.refs.location_id}`)
        .set('token', b.token)
        .send({ address: 'Stolen', timezone: 'UTC' })
        .expect(404);
      const listB = await t.http.get('/api/admin/location').set('token', b.token).expect(200);
      expect(listB.body.locations.map((l: { location_id: string }) => l.location_id)).toEqual([b.refs.location_id]);

      const noName = await t.http.post('/api/admin/instructor').set('token', a.token).send({ first_name: ' ' });
      expect(noName.body.errors).toEqual({ first_name: REFERENCE_MESSAGES.instructorNameRequired });
      const withPhoto = await t.http
        .put(`/api/admin/instructor/${a.refs.instructor_id}`)
        .set('token', a.token)
        .send({ first_name: 'Mira', photo_url: a.refs.images[0] })
        .expect(200);
      expect(withPhoto.body.photo_url).toBe(a.refs.images[0]);
      await t.http
        .put(`/api/admin/instructor/${a.refs.instructor_id}`)
        .set('token', a.token)
        .send({ first_name: 'Mira', photo_url: b.refs.images[0] })
        .expect(404);
      await t.http.put(`/api/admin/instructor/${a.refs.instructor_id}`).set('token', b.token).send({ first_name: 'X' }).expect(404);

      const noBody = await t.http.post('/api/admin/waiver').set('token', a.token).send({ name: 'Empty' });
      expect(noBody.body.errors).toEqual({ body: REFERENCE_MESSAGES.waiverBodyRequired });
      const waiver = await t.http.post('/api/admin/waiver').set('token', a.token).send({ name: 'Adult waiver', body: 'Terms' }).expect(201);
      const list = await t.http.get('/api/admin/waiver?limit=1000&page=1').set('token', a.token).expect(200);
      expect(list.body.waivers).toContainEqual({ template_id: waiver.body.template_id, name: 'Adult waiver' });
      await t.http.get(`/api/admin/waiver/${waiver.body.template_id}`).set('token', b.token).expect(404);
      const other = await t.http.get('/api/admin/waiver?limit=1000&page=1').set('token', b.token).expect(200);
      expect(other.body.waivers.map((w: { template_id: string }) => w.template_id)).not.toContain(waiver.body.template_id);
    });

    it('lists the fixed policies with their ids', async () => {
      const res = await t.http.get('/api/admin/policies').set('token', a.token).expect(200);
      expect(res.body.cancellation.slice(0, 3).map((p: { id: number; name: string }) => [p.id, p.name])).toEqual([
        [1, 'Flexible'],
        [2, 'Moderate'],
        [3, 'Firm'],
      ]);
      expect(res.body.rescheduling.slice(0, 2).map((p: { id: number; name: string }) => [p.id, p.name])).toEqual([
        [4, 'Agile'],
        [5, 'Fixed'],
      ]);
    });
  });

  describe('image upload', () => {
    it.each([
      ['PNG', tinyPng(), 'image/png'],
      ['JPEG', tinyJpeg(), 'image/jpeg'],
      ['GIF', tinyGif(), 'image/gif'],
    ])('accepts a %s and serves it back', async (_kind, bytes, type) => {
      const res = await t.http.post('/api/admin/upload').set('token', a.token).attach('file', bytes, 'whatever.bin').expect(200);
      expect(res.body).toEqual({ id: expect.any(String), url: expect.stringMatching(/^\/api\/media\//) });
      const served = await t.http.get(res.body.url).expect(200);
      expect(served.headers['content-type']).toBe(type);
      // Stored re-encoded: the same picture in the same format, not necessarily the same bytes.
      const [sent, back] = await Promise.all([sharp(bytes).metadata(), sharp(served.body as Buffer).metadata()]);
      expect({ format: back.format, width: back.width, height: back.height }).toEqual({ format: sent.format, width: sent.width, height: sent.height });
    });

    it('judges by bytes: a text file named .png is refused', async () => {
      const res = await t.http
        .post('/api/admin/upload')
        .set('token', a.token)
        .attach('file', Buffer.from('definitely not an image'), { filename: 'photo.png', contentType: 'image/png' });
      expect(res.status).toBe(415);
      expect(res.body.message).toBe('Only PNG, JPEG or GIF images can be uploaded.');
    });

    it('refuses an image over 4.5 MB and a request without a file', async () => {
      const big = Buffer.concat([tinyPng(), Buffer.alloc(4.5 * 1024 * 1024)]);
      const res = await t.http.post('/api/admin/upload').set('token', a.token).attach('file', big, 'big.png');
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('Images can be at most 4.5 MB.');
      const none = await t.http.post('/api/admin/upload').set('token', a.token).field('other', 'x');
      expect(none.status).toBe(400);
    });

    it('needs a signed-in caller', async () => {
      await t.http.post('/api/admin/upload').attach('file', tinyPng(), 'a.png').expect(401);
    });
  });
});
