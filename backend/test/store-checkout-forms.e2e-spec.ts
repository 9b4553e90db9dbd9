import { CHECKOUT_MESSAGES, FORM_ANSWER_MESSAGES as M } from '@studio/contracts';
import { MailService } from '../src/modules/notifications/mail.service';
import { schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * The checkout form at the store (issue 21): the course page carries what a buyer fills, the
 * checkout checks the answers with the one schema built from the form (400 with each message keyed
 * `answers.<set>.<field id>`), stores them with the order in its transaction (per order, or one set
 * per ticket, with the labels as they were), and the order API shows them to the studio only.
 */
describe('store checkout: the checkout form', () => {
  let t: TestApp;
  let token: string;
  let slug: string;
  let serial = 0;

  const FIELDS = [
    { id: 'who', type: 'name', label: 'Full name', required: true },
    { id: 'tel', type: 'phone', label: 'Mobile', placeholder: '+1 555 0100', required: true },
    {
      id: 'exp',
      type: 'radio',
      label: 'Used a wheel before?',
      description: 'See [our levels](https://studio.example/levels).',
      required: true,
      options: [
        { id: 'y', value: 'Yes' },
        { id: 'n', value: 'No' },
      ],
    },
    { id: 'ok', type: 'checkbox', label: 'I accept the studio rules', required: true },
    { id: 'note', type: 'textarea', label: 'Anything else?' },
  ];
  const answer = (first: string, over: object = {}) => ({
    who: { first_name: first, last_name: 'Okafor' },
    tel: '+1 (415) 555-0100',
    exp: 'n',
    ok: true,
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp({
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-checkout-forms-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Form Ceramics');
    token = owner.token;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
  });
  afterAll(async () => {
    await t.close();
  });

  const buyer = () => ({
    first_name: 'Ines',
    last_name: `Buyer${++serial}`,
    email: `ines.buyer${serial}.${Date.now()}@example.test`,
  });
  const checkout = (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body);
  const order = async (id: string, as = token) =>
    (await t.http.get(`/api/admin/order/${id}`).set('token', as).expect(200)).body;
  const courseWithForm = async (formCollectionType: 'order' | 'ticket') => {
    const course = await schedulableCourse(t, token, 10, { checkoutFormFields: FIELDS, formCollectionType });
    const eventId = await scheduleSession(t, token, course, { capacity: 10, price: 3000 });
    return { course, eventId };
  };

  it('the course page carries the form a buyer fills, and nothing else of it', async () => {
    const { course } = await courseWithForm('ticket');
    const page = (await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200)).body;
    expect(page.checkout_form.collection_type).toBe('ticket');
    expect(page.checkout_form.fields).toHaveLength(FIELDS.length);
    expect(page.checkout_form.fields[2]).toEqual({
      id: 'exp',
      type: 'radio',
      label: 'Used a wheel before?',
      placeholder: '',
      description: 'See [our levels](https://studio.example/levels).',
      required: true,
      options: [
        { id: 'y', value: 'Yes' },
        { id: 'n', value: 'No' },
      ],
    });
    const plain = await schedulableCourse(t, token, 4);
    await scheduleSession(t, token, plain, { capacity: 4 });
    const none = (await t.http.get(`/api/public/${slug}/activities/${plain.activity_id}`).expect(200)).body;
    expect(none.checkout_form).toBeNull();
  });

  it('per order: one set of answers, stored with the order and shown in its submissions', async () => {
    const { eventId } = await courseWithForm('order');
    const res = await checkout({
      event_id: eventId,
      party_size: 3,
      ...buyer(),
      answers: [answer(' Ines ', { note: 'Left-handed\nBring an apron', stale: 'a field since removed' })],
    }).expect(201);
    const body = await order(res.body.order_id);
    expect(body.submissions).toHaveLength(1);
    expect(body.submissions[0]).toMatchObject({ ticket: null });
    expect(body.submissions[0].answers).toEqual([
      { label: 'Full name', value: 'Ines Okafor' },
      { label: 'Mobile', value: '+1 (415) 555-0100' },
      { label: 'Used a wheel before?', value: 'No' },
      { label: 'I accept the studio rules', value: 'Yes' },
      { label: 'Anything else?', value: 'Left-handed\nBring an apron' },
    ]);
  });

  it('per ticket: one set per seat, numbered; the labels stay as they were when answered', async () => {
    const { course, eventId } = await courseWithForm('ticket');
    const res = await checkout({
      event_id: eventId,
      party_size: 2,
      ...buyer(),
      answers: [answer('Ines'), answer('Ada', { exp: 'y', note: '' })],
    }).expect(201);
    // The studio renames a field afterwards: the answers keep the label the buyer read.
    await t.withEm((em) =>
      em
        .getConnection()
        .execute(
          `update checkout_form set fields = ?::jsonb where id = (select required_form_id from activity where id = ?)`,
          [
            JSON.stringify(FIELDS.map((f) => (f.id === 'tel' ? { ...f, label: 'Phone' } : f))),
            course.activity_id,
          ],
        ),
    );
    const renamed = (await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200))
      .body;
    expect(renamed.checkout_form.fields[1].label).toBe('Phone');
    const body = await order(res.body.order_id);
    expect(body.submissions.map((s: { ticket: number }) => s.ticket)).toEqual([1, 2]);
    expect(body.submissions[1].answers).toEqual([
      { label: 'Full name', value: 'Ada Okafor' },
      { label: 'Mobile', value: '+1 (415) 555-0100' },
      { label: 'Used a wheel before?', value: 'Yes' },
      { label: 'I accept the studio rules', value: 'Yes' },
      { label: 'Anything else?', value: '' },
    ]);
  });

  it('the buyer finds their answers on the confirmation page and in the confirmation mail', async () => {
    const { eventId } = await courseWithForm('ticket');
    const mailed = jest.spyOn(t.created.app.get(MailService), 'enqueue');
    const who = buyer();
    const res = await checkout({
      event_id: eventId,
      party_size: 2,
      ...who,
      answers: [answer('Ines', { note: 'Left-handed\nBring an apron' }), answer('Ada', { exp: 'y' })],
    }).expect(201);
    await t.http.post(`${new URL(res.body.payment_url, 'http://x').pathname}/pay`).type('form').send('').expect(200);
    const confirmation = new URL(res.body.confirmation_url);
    const page = await t.http
      .get(`/api/public/${slug}/orders/${res.body.order_id}`)
      .query({ token: confirmation.searchParams.get('token') })
      .expect(200);
    expect(page.body.answers).toEqual([
      {
        ticket: 1,
        answers: [
          { label: 'Full name', value: 'Ines Okafor' },
          { label: 'Mobile', value: '+1 (415) 555-0100' },
          { label: 'Used a wheel before?', value: 'No' },
          { label: 'I accept the studio rules', value: 'Yes' },
          { label: 'Anything else?', value: 'Left-handed\nBring an apron' },
        ],
      },
      expect.objectContaining({ ticket: 2, answers: expect.arrayContaining([{ label: 'Used a wheel before?', value: 'Yes' }]) }),
    ]);
    const mail = mailed.mock.calls.map(([m]) => m).find((m) => m.to === who.email && m.subject.startsWith("You're booked"));
    mailed.mockRestore();
    expect(mail?.text).toContain(
      [
        'Your answers:',
        'Ticket 1:',
        '  Full name: Ines Okafor',
        '  Mobile: +1 (415) 555-0100',
        '  Used a wheel before?: No',
        '  I accept the studio rules: Yes',
        '  Anything else?: Left-handed / Bring an apron',
        'Ticket 2:',
        '  Full name: Ada Okafor',
      ].join('\n'),
    );
  });

  it('refuses answers that break the form with a message under each field, and holds no seat', async () => {
    const { course, eventId } = await courseWithForm('ticket');
    const refused = await checkout({
      event_id: eventId,
      party_size: 2,
      ...buyer(),
      answers: [
        answer('Ines', { tel: 'call me', exp: 'maybe' }),
        { who: { first_name: 'Ada', last_name: '' }, ok: false },
      ],
    }).expect(400);
    expect(refused.body.errors).toEqual({
      'answers.0.tel': M.phone,
      'answers.0.exp': M.option('Used a wheel before?'),
      'answers.1.who': M.name('Full name'),
      'answers.1.tel': M.required('Mobile'),
      'answers.1.exp': M.required('Used a wheel before?'),
      'answers.1.ok': M.required('I accept the studio rules'),
    });
    expect(refused.body.message).toBe(M.phone);
    // One set for a party of two, per ticket.
    const short = await checkout({
      event_id: eventId,
      party_size: 2,
      ...buyer(),
      answers: [answer('I')],
    }).expect(400);
    expect(short.body.errors).toEqual({ answers: M.sets(2) });
    // No answers at all: each required field is asked for.
    const none = await checkout({ event_id: eventId, party_size: 1, ...buyer() }).expect(400);
    expect(none.body.errors['answers.0.who']).toBe(M.required('Full name'));
    // Text that cannot be stored, and a shape the API does not take.
    const nul = await checkout({
      event_id: eventId,
      party_size: 1,
      ...buyer(),
      answers: [answer('I', { note: 'a\u0000b' })],
    }).expect(400);
    expect(nul.body.errors['answers.0.note']).toMatch(/control characters/);
    await checkout({ event_id: eventId, party_size: 1, ...buyer(), answers: [{ who: 42 }] }).expect(400);
    // Nothing was held by the refusals.
    const page = (await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200)).body;
    expect(page.sessions.find((s: { event_id: string }) => s.event_id === eventId).seats_left).toBe(10);
  });

  it('a course without a form refuses answers, and books without them', async () => {
    const plain = await schedulableCourse(t, token, 4);
    const eventId = await scheduleSession(t, token, plain, { capacity: 4, price: 1000 });
    const refused = await checkout({ event_id: eventId, ...buyer(), answers: [{ note: 'hi' }] }).expect(400);
    expect(refused.body).toMatchObject({ message: M.noForm, errors: { answers: M.noForm } });
    const booked = await checkout({ event_id: eventId, ...buyer(), answers: [] }).expect(201);
    expect((await order(booked.body.order_id)).submissions).toEqual([]);
  });

  it('another studio sees neither the answers nor the session through its own store', async () => {
    const { eventId } = await courseWithForm('order');
    const res = await checkout({
      event_id: eventId,
      party_size: 1,
      ...buyer(),
      answers: [answer('Ines')],
    }).expect(201);
    const other = await t.organizationWithUser('owner', 'Other Studio');
    await t.http.get(`/api/admin/order/${res.body.order_id}`).set('token', other.token).expect(404);
    const otherSlug = (await t.http.get('/api/admin/org').set('token', other.token).expect(200)).body.slug;
    const elsewhere = await t.http
      .post(`/api/public/${otherSlug}/checkout`)
      .send({ event_id: eventId, party_size: 1, ...buyer(), answers: [answer('Ines')] })
      .expect(404);
    expect(elsewhere.body.message).toBe(CHECKOUT_MESSAGES.sessionNotFound);
  });
});
