import { addStudent, scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/** A CSV line's fields (every field quoted, "" inside a field), without the quotes. */
function fields(line: string): string[] {
  expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);
  return [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replaceAll('""', '"'));
}

describe('enrollment CSV export', () => {
  let t: TestApp;
  let token: string;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.organizationWithUser()).token;
    const course = await schedulableCourse(t, token);
    eventId = await scheduleSession(t, token, course, { capacity: 20 });
    const people: [string, string, string, string | undefined, string][] = [
      ['Ana', 'Zapata', 'ana@clay.test', '+1 212 555 0118', 'signed'],
      ['Bruno', 'Young', 'bruno@clay.test', undefined, 'pending'],
      ['Carla;=HYPERLINK("http://evil";"x")', 'Xu', 'carla@glass.test', '+44 (20) 7946-0958', 'expired'],
      ['Dan', 'Smith, -2+3', 'dan@clay.test', '+1-2', 'not_required'],
    ];
    for (const [first_name, last_name, email, phone, status] of people) {
      const studentId = await addStudent(t, token, { first_name, last_name, email, ...(phone && { phone }) });
      const enrolled = await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId }).expect(201);
      // Signing waivers arrives with the waiver integration; the status is set directly here.
      await t.withEm((em) => em.getConnection().execute(`update enrollment set waiver_status = ? where id = ?`, [status, enrolled.body.enrollment_id]));
    }
  });
  afterAll(() => t.close());

  async function exportRows(): Promise<Record<string, string[]>> {
    const res = await t.http.post('/api/admin/export/enrollment').set('token', token).send({ event_id: eventId, enrollment_ids: [] }).expect(200);
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\n');
    expect(fields(lines[0])).toEqual(['First name', 'Last name', 'Email', 'Phone', 'Guests', 'Waiver status', 'Enrolled at', 'Order number', 'Order total']);
    return Object.fromEntries(lines.slice(1).map((l) => [fields(l)[2], fields(l)]));
  }

  it('quotes every field, empty ones included', async () => {
    const res = await t.http.post('/api/admin/export/enrollment').set('token', token).send({ event_id: eventId, enrollment_ids: [] }).expect(200);
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\n');
    expect(lines).toHaveLength(5);
    const bruno = lines.find((l) => l.includes('bruno@clay.test'))!;
    expect(bruno).toMatch(/^"Bruno","Young","bruno@clay.test","","0","Pending",/);
  });

  it('neutralises a formula after ; or , as well as at the start of a cell', async () => {
    const rows = await exportRows();
    expect(rows['carla@glass.test'][0]).toBe('Carla;\'=HYPERLINK("http://evil";"x")');
    expect(rows['dan@clay.test'][1]).toBe("Smith, '-2+3");
  });

  it('leaves phone numbers readable, and neutralises what only starts like one', async () => {
    const rows = await exportRows();
    expect(rows['ana@clay.test'][3]).toBe('+1 212 555 0118');
    expect(rows['carla@glass.test'][3]).toBe('+44 (20) 7946-0958');
    expect(rows['dan@clay.test'][3]).toBe("'+1-2");
  });

  it('exports the waiver status as its label (spec 001 §4)', async () => {
    const rows = await exportRows();
    expect(
      Object.fromEntries(Object.entries(rows).map(([email, row]) => [email, row[5]])),
    ).toEqual({
      'ana@clay.test': 'Completed',
      'bruno@clay.test': 'Pending',
      'carla@glass.test': 'Unknown',
      'dan@clay.test': 'N/A',
    });
  });
});
