import { COURSE_LIST_MESSAGES, STUDENT_MESSAGES } from '@studio/contracts';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { startTestApp, TestApp } from './test-app';

type CourseRow = { activity_id: string; name: string; unit_price: number; capacity: number };
type StudentRow = { student_id: string; first_name: string; last_name: string; email: string };

/** The Courses list and the Students page: search, sort and paging in SQL, inside the caller's organization. */
describe('lists: courses and students', () => {
  let t: TestApp;
  let a: { token: string; refs: Awaited<ReturnType<typeof courseRefs>> };
  let b: { token: string; refs: Awaited<ReturnType<typeof courseRefs>> };
  const names = Array.from({ length: 23 }, (_, i) => `Course ${String(i + 1).padStart(2, '0')}`);

  beforeAll(async () => {
    t = await startTestApp({ MEDIA_DIR: `/tmp/studio-media-test-${process.pid}` });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, refs: await courseRefs(t, ownerA.token) };
    b = { token: ownerB.token, refs: await courseRefs(t, ownerB.token) };
    // Created in order, with prices and capacities that do not follow the names.
    for (const [i, name] of names.entries()) {
      await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({
          ...validCourse(a.refs),
          name,
          price: 1000 + ((i * 7) % 23) * 100,
          capacity: 2 + ((i * 5) % 23),
        })
        .expect(201);
    }
    await t.http
      .post('/api/admin/activities')
      .set('token', a.token)
      .send({ ...validCourse(a.refs), name: 'Glaze 100% natural' })
      .expect(201);
    await t.http
      .post('/api/admin/activities')
      .set('token', b.token)
      .send({ ...validCourse(b.refs), name: 'Course of the other studio' })
      .expect(201);
    // Two dozen courses through the whole API (uploads are re-encoded): slow on a busy machine.
  }, 180000);
  afterAll(() => t.close());

  const courses = (query: string, token = a.token) =>
    t.http.get(`/api/admin/activities${query}`).set('token', token);

  describe('GET /api/admin/activities', () => {
    it('without parameters still answers every course of the organization, newest first (the pickers read it)', async () => {
      const res = await courses('').expect(200);
      expect(res.body.totalCount).toBe(24);
      expect(res.body.activities).toHaveLength(24);
      expect(res.body.activities[0].name).toBe('Glaze 100% natural');
      expect(res.body.activities[1].name).toBe('Course 23');
      expect(res.body.activities.map((c: CourseRow) => c.name)).not.toContain('Course of the other studio');
      expect(Object.keys(res.body.activities[0])).toEqual(expect.arrayContaining(['activity_id', 'name']));
    });

    it('pages by name: the pages cover every course once, and totalCount counts them all', async () => {
      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const res = await courses(`?page=${page}&limit=10&sortField=name&sortOrder=asc`).expect(200);
        expect(res.body.totalCount).toBe(24);
        expect(res.body.currentPage).toBe(page);
        expect(res.body.itemsPerPage).toBe(10);
        seen.push(...res.body.activities.map((c: CourseRow) => c.name));
      }
      expect(seen).toEqual([...names, 'Glaze 100% natural']);
      const past = await courses('?page=4&limit=10').expect(200);
      expect(past.body.activities).toEqual([]);
      expect(past.body.totalCount).toBe(24);
    });

    it.each([
      ['unit_price', 'asc', (x: CourseRow, y: CourseRow) => x.unit_price - y.unit_price],
      ['unit_price', 'desc', (x: CourseRow, y: CourseRow) => y.unit_price - x.unit_price],
      ['capacity', 'descend', (x: CourseRow, y: CourseRow) => y.capacity - x.capacity],
      ['name', 'desc', (x: CourseRow, y: CourseRow) => y.name.localeCompare(x.name)],
    ] as const)('sorts by %s %s across the whole list, not only the page', async (field, order, compare) => {
      const all = (await courses('').expect(200)).body.activities as CourseRow[];
      const expected = [...all]
        .sort(compare)
        .slice(0, 5)
        .map((c) => (field === 'name' ? c.name : c[field]));
      const res = await courses(`?limit=5&sortField=${field}&sortOrder=${order}`).expect(200);
      expect(res.body.activities.map((c: CourseRow) => (field === 'name' ? c.name : c[field]))).toEqual(
        expected,
      );
    });

    it('searches any part of the name, case-insensitively, with LIKE wildcards taken as text', async () => {
      const res = await courses('?search=COURSE%201&limit=5&sortField=name').expect(200);
      expect(res.body.totalCount).toBe(10);
      expect(res.body.activities.map((c: CourseRow) => c.name)).toEqual([
        'Course 10',
        'Course 11',
        'Course 12',
        'Course 13',
        'Course 14',
      ]);
      const percent = await courses(`?search=${encodeURIComponent('100%')}`).expect(200);
      expect(percent.body.activities.map((c: CourseRow) => c.name)).toEqual(['Glaze 100% natural']);
      const wildcard = await courses(`?search=${encodeURIComponent('_')}`).expect(200);
      expect(wildcard.body.totalCount).toBe(0);
    });

    it("never shows another organization's courses", async () => {
      const res = await courses('?search=course', b.token).expect(200);
      expect(res.body.activities.map((c: CourseRow) => c.name)).toEqual(['Course of the other studio']);
      expect(res.body.totalCount).toBe(1);
    });

    it.each([
      ['?page=0', COURSE_LIST_MESSAGES.page],
      ['?page=abc', COURSE_LIST_MESSAGES.page],
      ['?limit=0', COURSE_LIST_MESSAGES.limit],
      ['?limit=1001', COURSE_LIST_MESSAGES.limit],
      ['?limit=2.5', COURSE_LIST_MESSAGES.limit],
      ['?sortField=price_cents', COURSE_LIST_MESSAGES.sortField],
      ['?sortField=name;drop%20table%20activity', COURSE_LIST_MESSAGES.sortField],
      ['?sortOrder=sideways', COURSE_LIST_MESSAGES.sortOrder],
      [`?search=${'x'.repeat(201)}`, COURSE_LIST_MESSAGES.search],
      ['?page=1&page=2', COURSE_LIST_MESSAGES.page],
    ])('answers 400 with a clear message to %s', async (query, message) => {
      const res = await courses(query);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    });

    it('refuses an unknown parameter with 400', async () => {
      const res = await courses('?order=name');
      expect(res.status).toBe(400);
    });

    it('has an index for the name search and sort, so a page is not a scan of every course', async () => {
      // A table of 25 rows is cheaper to scan; the plan must still find an index when scans cost more.
      const plan = await t.withEm((em) =>
        em.transactional(async (tx) => {
          await tx.execute('set local enable_seqscan = off');
          return tx.execute<{ 'QUERY PLAN': string }[]>(
            `explain select a.id from activity a where a.organization_id = '00000000-0000-0000-0000-000000000000' and lower(a.name) like '%clay%' order by lower(a.name) asc, a.id asc limit 20`,
          );
        }),
      );
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/activity_organization_name_index|activity_name_trgm/);
    });
  });

  describe('GET and POST /api/admin/student', () => {
    const students = (query: string, token = a.token) =>
      t.http.get(`/api/admin/student${query}`).set('token', token);
    const create = (body: Record<string, unknown>, token = a.token) =>
      t.http.post('/api/admin/student').set('token', token).send(body);

    beforeAll(async () => {
      for (let i = 1; i <= 25; i++) {
        await create({
          first_name: `Ann${i}`,
          last_name: `Potter${String(i).padStart(2, '0')}`,
          email: `ann${i}@clay.test`,
        }).expect(201);
      }
      await create({ first_name: 'Other', last_name: 'Studio', email: 'other@glass.test' }, b.token).expect(
        201,
      );
    }, 120000);

    it('creates a student that the list then finds, with its email lower-cased', async () => {
      const res = await create({
        first_name: ' Zoe ',
        last_name: 'Zimmer',
        email: 'Zoe.Zimmer@Clay.TEST',
      }).expect(201);
      expect(res.body).toMatchObject({
        first_name: 'Zoe',
        last_name: 'Zimmer',
        email: 'zoe.zimmer@clay.test',
        user_id: null,
      });
      const found = await students('?search=zimmer').expect(200);
      expect(found.body.students.map((s: StudentRow) => s.student_id)).toEqual([res.body.student_id]);
      await t.http.get(`/api/admin/student/${res.body.student_id}`).set('token', a.token).expect(200);
    });

    it('pages students by last name with a totalCount', async () => {
      const first = await students('?page=1&limit=10&search=potter').expect(200);
      const third = await students('?page=3&limit=10&search=potter').expect(200);
      expect(first.body.totalCount).toBe(25);
      expect(first.body.students.map((s: StudentRow) => s.last_name)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Potter${String(i + 1).padStart(2, '0')}`),
      );
      expect(third.body.students.map((s: StudentRow) => s.last_name)).toEqual([
        'Potter21',
        'Potter22',
        'Potter23',
        'Potter24',
        'Potter25',
      ]);
      expect(third.body).toMatchObject({ currentPage: 3, itemsPerPage: 10 });
    });

    it('pages by cursor (keyset) through the same students as the numbered pages, and refuses a bad cursor', async () => {
      const all = (await students('?limit=100&search=potter').expect(200)).body;
      expect(all.next_cursor).toBeNull();
      const walked: string[] = [];
      let page = await students('?limit=10&search=potter').expect(200);
      walked.push(...page.body.students.map((s: StudentRow) => s.student_id));
      for (let n = 2; page.body.next_cursor; n++) {
        page = await students(`?limit=10&search=potter&page=${n}&cursor=${page.body.next_cursor}`).expect(200);
        expect(page.body).toMatchObject({ totalCount: null, currentPage: n, itemsPerPage: 10 });
        walked.push(...page.body.students.map((s: StudentRow) => s.student_id));
      }
      expect(walked).toEqual(all.students.map((s: StudentRow) => s.student_id));
      expect(walked).toHaveLength(25);
      for (const bad of ['nope', Buffer.from('["a","b","not-a-uuid"]').toString('base64url'), 'x'.repeat(3001)]) {
        const res = await students(`?cursor=${bad}`).expect(400);
        expect(res.body.errors).toMatchObject({ cursor: STUDENT_MESSAGES.cursor });
      }
    });

    it('refuses a second student with the same email in the organization with 409 and the message, and adds nothing', async () => {
      const before = (await students('?search=ann1@').expect(200)).body.totalCount;
      const res = await create({ first_name: 'Ann', last_name: 'Again', email: 'ANN1@clay.test' });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(STUDENT_MESSAGES.emailTaken);
      expect(res.body.errors).toEqual({ email: STUDENT_MESSAGES.emailTaken });
      expect((await students('?search=ann1@').expect(200)).body.totalCount).toBe(before);
    });

    it('answers 409, never 500, when the same new student is posted twice at once', async () => {
      const body = { first_name: 'Race', last_name: 'Twice', email: 'race@clay.test' };
      const answers = await Promise.all([create(body), create(body), create(body)]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      for (const r of answers.filter((x) => x.status === 409))
        expect(r.body.message).toBe(STUDENT_MESSAGES.emailTaken);
    });

    it('lets another organization have a student with the same email, and keeps each list to its own', async () => {
      await create({ first_name: 'Ann', last_name: 'Elsewhere', email: 'ann1@clay.test' }, b.token).expect(
        201,
      );
      const theirs = await students('?search=ann1@', b.token).expect(200);
      expect(theirs.body.students.map((s: StudentRow) => s.last_name)).toEqual(['Elsewhere']);
      const ours = await students('?search=other@glass').expect(200);
      expect(ours.body.students).toEqual([]);
      await t.http
        .get(`/api/admin/student/${theirs.body.students[0].student_id}`)
        .set('token', a.token)
        .expect(404);
    });

    it.each([
      [{ last_name: 'X', email: 'x@clay.test' }, 'first_name', STUDENT_MESSAGES.firstNameRequired],
      [
        { first_name: '  ', last_name: 'X', email: 'x@clay.test' },
        'first_name',
        STUDENT_MESSAGES.firstNameRequired,
      ],
      [
        { first_name: 'X', last_name: '', email: 'x@clay.test' },
        'last_name',
        STUDENT_MESSAGES.lastNameRequired,
      ],
      [{ first_name: 'X', last_name: 'Y', email: 'not-an-email' }, 'email', STUDENT_MESSAGES.email],
      [{ first_name: 'X', last_name: 'Y' }, 'email', STUDENT_MESSAGES.email],
    ])('refuses %j with 400 naming %s', async (body, field, message) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.errors[field]).toBe(message);
    });

    it.each([
      ['?page=0', STUDENT_MESSAGES.page],
      ['?limit=101', STUDENT_MESSAGES.limit],
      ['?limit=x', STUDENT_MESSAGES.limit],
    ])('answers 400 to the list query %s', async (query, message) => {
      const res = await students(query);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    });

    it('needs a signed-in admin', async () => {
      await t.http.get('/api/admin/student').expect(401);
      await t.http
        .post('/api/admin/student')
        .send({ first_name: 'A', last_name: 'B', email: 'a@b.test' })
        .expect(401);
    });
  });
});
