import {
  DEFAULT_OPTION_VALUE,
  OPTION_FIELD_TYPES,
  SINGLE_USE_FIELD_TYPES,
  type CheckoutFormField,
  type FormFieldType,
} from '@studio/contracts';
import type { CourseFormFieldRead } from '@studio/ui';

let sequence = 0;
/** Ids only need to be unique within one form; the server keeps them as field keys. */
export function newKey(prefix: string): string {
  sequence += 1;
  return `${prefix}_${Date.now().toString(36)}_${sequence}`;
}

export const FIELD_TYPE_LABELS: Record<FormFieldType, string> = {
  text: 'Short text',
  textarea: 'Long text',
  email: 'Email',
  phone: 'Phone',
  checkbox: 'Checkbox',
  radio: 'Radio buttons',
  select: 'Dropdown',
  name: 'Name',
};

export function newOption(): CheckoutFormField['options'][number] {
  return { id: newKey('opt'), value: DEFAULT_OPTION_VALUE };
}

/** A new field of a type; select and radio start with one option, 'Option 1' (spec 000 §5). */
export function newField(type: FormFieldType): CheckoutFormField {
  return {
    id: newKey('field'),
    type,
    label: FIELD_TYPE_LABELS[type],
    placeholder: '',
    description: '',
    required: false,
    options: OPTION_FIELD_TYPES.includes(type) ? [newOption()] : [],
  };
}

/** Name, email and phone may each be added once: true when that type is already in the form. */
export function isUsedUp(type: FormFieldType, fields: readonly CheckoutFormField[]): boolean {
  return SINGLE_USE_FIELD_TYPES.includes(type) && fields.some((f) => f.type === type);
}

/** The stored form (GET answer) as builder fields. */
export function fieldsFromCourse(fields: readonly CourseFormFieldRead[] | undefined): CheckoutFormField[] {
  return (fields ?? []).map((f) => ({
    id: f.field_key || f.id,
    type: f.type as FormFieldType,
    label: f.label,
    placeholder: f.placeholder ?? '',
    description: f.description ?? '',
    required: Boolean(f.required),
    options: (f.options ?? []).map((o) => ({ id: o.option_key || o.id, value: o.value })),
  }));
}
