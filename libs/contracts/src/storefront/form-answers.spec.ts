import { checkoutSchema } from './checkout.schema';
import {
  answerErrors,
  FORM_ANSWER_MESSAGES as M,
  formAnswersSchema,
  storedAnswerSets,
  type PublicCheckoutForm,
  type PublicFormField,
} from './form-answers';

const field = (
  over: Partial<PublicFormField> & Pick<PublicFormField, 'id' | 'type' | 'label'>,
): PublicFormField => ({
  placeholder: '',
  description: '',
  required: false,
  options: [],
  ...over,
});

const FIELDS: PublicFormField[] = [
  field({ id: 'who', type: 'name', label: 'Full name', required: true }),
  field({ id: 'mail', type: 'email', label: 'Work email' }),
  field({ id: 'tel', type: 'phone', label: 'Mobile', required: true }),
  field({ id: 'note', type: 'text', label: 'Allergies' }),
  field({ id: 'story', type: 'textarea', label: 'Tell us more' }),
  field({ id: 'ok', type: 'checkbox', label: 'I accept the studio rules', required: true }),
  field({
    id: 'exp',
    type: 'radio',
    label: 'Used a wheel before?',
    required: true,
    options: [
      { id: 'y', value: 'Yes' },
      { id: 'n', value: 'No' },
    ],
  }),
  field({
    id: 'size',
    type: 'select',
    label: 'Apron size',
    options: [
      { id: 's', value: 'Small' },
      { id: 'l', value: 'Large' },
    ],
  }),
];
const perOrder: PublicCheckoutForm = { collection_type: 'order', fields: FIELDS };
const perTicket: PublicCheckoutForm = { collection_type: 'ticket', fields: FIELDS };

const valid = {
  who: { first_name: ' Ines ', last_name: 'Okafor' },
  mail: 'ines@example.test',
  tel: '+1 (415) 555-0100',
  note: '',
  story: 'Line one\nLine two',
  ok: true,
  exp: 'n',
  size: 'l',
};

/** The errors of one set's answers, keyed as the API answers them. */
const errorsOf = (form: PublicCheckoutForm, answers: unknown, party = 1) => {
  const parsed = formAnswersSchema(form, party).safeParse(answers);
  return parsed.success ? {} : answerErrors(parsed.error);
};

describe('checkout form answers (issue 21)', () => {
  it('takes a valid set per order, trimmed, with the answers as stored', () => {
    const parsed = formAnswersSchema(perOrder, 3).parse([valid]);
    expect(parsed).toEqual([{ ...valid, who: { first_name: 'Ines', last_name: 'Okafor' } }]);
    expect(storedAnswerSets(perOrder, parsed)).toEqual([
      {
        ticket: null,
        answers: [
          { field_id: 'who', type: 'name', label: 'Full name', value: 'Ines Okafor' },
          { field_id: 'mail', type: 'email', label: 'Work email', value: 'ines@example.test' },
          { field_id: 'tel', type: 'phone', label: 'Mobile', value: '+1 (415) 555-0100' },
          { field_id: 'note', type: 'text', label: 'Allergies', value: '' },
          { field_id: 'story', type: 'textarea', label: 'Tell us more', value: 'Line one\nLine two' },
          { field_id: 'ok', type: 'checkbox', label: 'I accept the studio rules', value: 'Yes' },
          { field_id: 'exp', type: 'radio', label: 'Used a wheel before?', value: 'No' },
          { field_id: 'size', type: 'select', label: 'Apron size', value: 'Large' },
        ],
      },
    ]);
  });

  it('names the label of each missing required field, keyed by set and field', () => {
    expect(errorsOf(perOrder, [{}])).toEqual({
      'answers.0.who': M.required('Full name'),
      'answers.0.tel': M.required('Mobile'),
      'answers.0.ok': M.required('I accept the studio rules'),
      'answers.0.exp': M.required('Used a wheel before?'),
    });
    // Absent answers are empty sets: the same refusals.
    expect(errorsOf(perOrder, undefined)).toEqual(errorsOf(perOrder, [{}]));
    // Blank text is missing text.
    expect(errorsOf(perOrder, [{ ...valid, tel: '   ' }])).toEqual({ 'answers.0.tel': M.required('Mobile') });
  });

  it('text and textarea: bounded lengths, no control characters (textarea keeps line breaks)', () => {
    expect(errorsOf(perOrder, [{ ...valid, note: 'x'.repeat(501) }])).toEqual({
      'answers.0.note': M.tooLong('Allergies', 500),
    });
    expect(errorsOf(perOrder, [{ ...valid, note: 'x'.repeat(500) }])).toEqual({});
    expect(errorsOf(perOrder, [{ ...valid, story: 'y'.repeat(5001) }])).toEqual({
      'answers.0.story': M.tooLong('Tell us more', 5000),
    });
    expect(errorsOf(perOrder, [{ ...valid, note: 'a\u0000b' }])).toEqual({
      'answers.0.note': 'Text cannot contain control characters such as NUL.',
    });
    expect(errorsOf(perOrder, [{ ...valid, note: 'a\nb' }])['answers.0.note']).toMatch(/control characters/);
    expect(errorsOf(perOrder, [{ ...valid, note: 42 }])).toEqual({ 'answers.0.note': M.text('Allergies') });
  });

  it('email and phone: valid when given, optional unless required', () => {
    expect(errorsOf(perOrder, [{ ...valid, mail: 'not-an-email' }])).toEqual({ 'answers.0.mail': M.email });
    expect(errorsOf(perOrder, [{ ...valid, mail: '' }])).toEqual({});
    for (const bad of ['12345', 'call me', '+1 555 0100 ext 2', '1'.repeat(16)])
      expect([bad, errorsOf(perOrder, [{ ...valid, tel: bad }])]).toEqual([
        bad,
        { 'answers.0.tel': M.phone },
      ]);
    for (const good of ['4155550100', '+44 20 7946 0958', '(415) 555-0100', '415.555.0100'])
      expect([good, errorsOf(perOrder, [{ ...valid, tel: good }])]).toEqual([good, {}]);
  });

  it('checkbox: a boolean, true when required', () => {
    expect(errorsOf(perOrder, [{ ...valid, ok: false }])).toEqual({
      'answers.0.ok': M.required('I accept the studio rules'),
    });
    expect(errorsOf(perOrder, [{ ...valid, ok: 'yes' }])).toEqual({
      'answers.0.ok': M.checkbox('I accept the studio rules'),
    });
    const optional = {
      collection_type: 'order' as const,
      fields: [field({ id: 'news', type: 'checkbox', label: 'News' })],
    };
    expect(formAnswersSchema(optional, 1).parse([{}])).toEqual([{ news: false }]);
    expect(storedAnswerSets(optional, [{ news: false }])[0].answers[0].value).toBe('No');
  });

  it('select and radio: an option id the field has', () => {
    expect(errorsOf(perOrder, [{ ...valid, exp: 'maybe' }])).toEqual({
      'answers.0.exp': M.option('Used a wheel before?'),
    });
    expect(errorsOf(perOrder, [{ ...valid, size: 'Large' }])).toEqual({
      'answers.0.size': M.option('Apron size'),
    });
    expect(errorsOf(perOrder, [{ ...valid, size: '' }])).toEqual({});
    expect(errorsOf(perOrder, [{ ...valid, exp: '' }])).toEqual({
      'answers.0.exp': M.required('Used a wheel before?'),
    });
  });

  it('name: a first and a last name, both or neither', () => {
    expect(errorsOf(perOrder, [{ ...valid, who: { first_name: 'Ines', last_name: ' ' } }])).toEqual({
      'answers.0.who': M.name('Full name'),
    });
    expect(errorsOf(perOrder, [{ ...valid, who: 'Ines Okafor' }])).toEqual({
      'answers.0.who': M.name('Full name'),
    });
    expect(errorsOf(perOrder, [{ ...valid, who: { first_name: 'I', last_name: 'x'.repeat(101) } }])).toEqual({
      'answers.0.who': M.tooLong('Full name', 100),
    });
    const optional = {
      collection_type: 'order' as const,
      fields: [field({ id: 'n', type: 'name', label: 'Guest' })],
    };
    expect(errorsOf(optional, [{}])).toEqual({});
    expect(errorsOf(optional, [{ n: { first_name: 'A', last_name: '' } }])).toEqual({
      'answers.0.n': M.name('Guest'),
    });
  });

  it('per order: one set whatever the party; per ticket: one set per seat, numbered from 1', () => {
    expect(errorsOf(perOrder, [valid, valid], 2)).toEqual({ answers: M.sets(1) });
    expect(errorsOf(perTicket, [valid], 2)).toEqual({ answers: M.sets(2) });
    expect(errorsOf(perTicket, [valid, { ...valid, mail: 'x' }], 2)).toEqual({ 'answers.1.mail': M.email });
    const parsed = formAnswersSchema(perTicket, 2).parse([
      valid,
      { ...valid, who: { first_name: 'Ada', last_name: 'Lee' } },
    ]);
    expect(storedAnswerSets(perTicket, parsed).map((s) => [s.ticket, s.answers[0].value])).toEqual([
      [1, 'Ines Okafor'],
      [2, 'Ada Lee'],
    ]);
    expect(errorsOf(perTicket, 'nope', 2)).toEqual({ answers: M.sets(2) });
  });

  it('drops answers to fields the form does not have', () => {
    expect(formAnswersSchema(perOrder, 1).parse([{ ...valid, gone: 'old field' }])[0]).not.toHaveProperty(
      'gone',
    );
  });

  it('a course without a form takes no answers', () => {
    expect(formAnswersSchema(null, 2).parse(undefined)).toEqual([]);
    expect(formAnswersSchema(null, 2).parse([])).toEqual([]);
    expect(errorsOf(null as unknown as PublicCheckoutForm, [{ x: 'y' }])).toEqual({ answers: M.noForm });
    expect(errorsOf({ collection_type: 'ticket', fields: [] }, [{}], 2)).toEqual({ answers: M.noForm });
  });

  it("the checkout body takes answers in the API's shape", () => {
    const body = {
      event_id: '00000000-0000-4000-8000-000000000001',
      first_name: 'A',
      last_name: 'B',
      email: 'a@b.co',
    };
    expect(checkoutSchema.safeParse({ ...body, answers: [valid] }).success).toBe(true);
    expect(
      checkoutSchema.safeParse({ ...body, answers: [{ who: { first_name: 'A', last_name: 'B', x: 1 } }] })
        .success,
    ).toBe(false);
    expect(checkoutSchema.safeParse({ ...body, answers: [{ n: 3 }] }).success).toBe(false);
    expect(
      checkoutSchema.safeParse({ ...body, answers: Array.from({ length: 21 }, () => ({})) }).success,
    ).toBe(false);
  });
});
