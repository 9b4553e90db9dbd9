import type {
  AnswerSet,
  FormAnswerValue,
  NameAnswer,
  PublicCheckoutForm,
  PublicFormField,
} from '@studio/contracts';
import { parseDescriptionLinks } from '@studio/contracts/src/catalog/description-links';
import { answerErrorKey } from '@studio/contracts/src/storefront/store-rules';

/*
 * The course's checkout form on the checkout page (issue 21): each field of the form builder with
 * its label, its description (its [text](url) links as links, only http, https and mailto) and its
 * error under it. Per ticket, one set per seat chosen, labelled "Ticket 1", "Ticket 2"…
 */

/** The rules that check the answers: zod, in a chunk of its own that only the checkout page loads. */
export const loadAnswerRules = () => import('@studio/contracts/src/storefront/form-answers');

interface Props {
  form: PublicCheckoutForm;
  /** How many sets to show (answerSetCount). */
  count: number;
  answers: AnswerSet[];
  errors: Record<string, string>;
  /** A name's part ({ first_name } or { last_name }) is merged into the name. */
  onAnswer(set: number, fieldId: string, value: FormAnswerValue | Partial<NameAnswer>): void;
}

/** A description as text with safe links; links open in a new tab so the checkout stays. */
function Description({ id, text }: { id: string; text: string }) {
  return (
    <p className="field-description" id={id}>
      {parseDescriptionLinks(text).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}

const labelOf = (field: PublicFormField) => (field.required ? field.label : `${field.label} (optional)`);

function AnswerField({
  field,
  id,
  value,
  error,
  onChange,
}: {
  field: PublicFormField;
  id: string;
  value: FormAnswerValue | undefined;
  error?: string;
  onChange(value: FormAnswerValue | Partial<NameAnswer>): void;
}) {
  const describedBy = [field.description ? `${id}-desc` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const aria = {
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(error ? { 'aria-invalid': true } : {}),
    ...(field.required ? { 'aria-required': true } : {}),
  };
  const text = typeof value === 'string' ? value : '';
  const description = field.description ? <Description id={`${id}-desc`} text={field.description} /> : null;
  const problem = error ? (
    <p className="field-error" id={`${id}-error`} role="alert">
      {error}
    </p>
  ) : null;
  const onText = (e: Event) => onChange((e.target as HTMLInputElement).value);

  if (field.type === 'checkbox') {
    return (
      <div className="field choice">
        <label htmlFor={id}>
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
            {...aria}
          />{' '}
          {labelOf(field)}
        </label>
        {description}
        {problem}
      </div>
    );
  }
  if (field.type === 'radio' || field.type === 'name') {
    const name = (
      value && typeof value === 'object' ? value : { first_name: '', last_name: '' }
    ) as NameAnswer;
    return (
      <fieldset
        className="field group"
        {...(field.type === 'radio'
          ? { role: 'radiogroup', ...aria }
          : describedBy
            ? { 'aria-describedby': describedBy }
            : {})}
      >
        <legend>{labelOf(field)}</legend>
        {description}
        {field.type === 'radio' ? (
          field.options.map((option, i) => (
            <label key={option.id} className="choice" htmlFor={`${id}-${i}`}>
              <input
                id={`${id}-${i}`}
                type="radio"
                name={id}
                value={option.id}
                checked={text === option.id}
                onChange={() => onChange(option.id)}
              />{' '}
              {option.value}
            </label>
          ))
        ) : (
          <div className="inline">
            <div className="field">
              <label htmlFor={`${id}-first`}>First</label>
              <input
                id={`${id}-first`}
                value={name.first_name}
                placeholder={field.placeholder || undefined}
                {...(error ? { 'aria-invalid': true } : {})}
                onInput={(e) => onChange({ first_name: (e.target as HTMLInputElement).value })}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-last`}>Last</label>
              <input
                id={`${id}-last`}
                value={name.last_name}
                {...(error ? { 'aria-invalid': true } : {})}
                onInput={(e) => onChange({ last_name: (e.target as HTMLInputElement).value })}
              />
            </div>
          </div>
        )}
        {problem}
      </fieldset>
    );
  }
  let control;
  if (field.type === 'select') {
    control = (
      <select id={id} value={text} onChange={onText} {...aria}>
        <option value="">{field.placeholder || 'Choose…'}</option>
        {field.options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.value}
          </option>
        ))}
      </select>
    );
  } else if (field.type === 'textarea') {
    control = (
      <textarea
        id={id}
        rows={3}
        value={text}
        placeholder={field.placeholder || undefined}
        onInput={onText}
        {...aria}
      />
    );
  } else {
    // One of text, email and tel (a cast: Preact's types read a union of literals as a combobox's).
    const type = (field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : 'text') as 'text';
    control = (
      <input
        id={id}
        type={type}
        value={text}
        placeholder={field.placeholder || undefined}
        onInput={onText}
        {...aria}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{labelOf(field)}</label>
      {description}
      {control}
      {problem}
    </div>
  );
}

/** The form's sets of fields: one per order, or one per seat chosen ("Ticket 1"…). */
export function CheckoutFormFields({ form, count, answers, errors, onAnswer }: Props) {
  const perTicket = form.collection_type === 'ticket';
  return (
    <>
      {Array.from({ length: count }, (_, set) => (
        <fieldset key={set} className="answer-set">
          <legend>{perTicket ? `Ticket ${set + 1}` : 'A few questions from the studio'}</legend>
          {form.fields.map((field, i) => (
            <AnswerField
              key={field.id}
              field={field}
              id={`answer-${set}-${i}`}
              value={answers[set]?.[field.id]}
              error={errors[answerErrorKey(set, field.id)]}
              onChange={(value) => onAnswer(set, field.id, value)}
            />
          ))}
        </fieldset>
      ))}
    </>
  );
}
