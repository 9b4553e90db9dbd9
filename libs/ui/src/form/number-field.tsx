import type { ReactNode } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormField } from './form-field';
import { NumberInput } from './number-input';

interface NumberFieldProps<T extends FieldValues, N extends FieldPath<T>, O extends FieldValues = T> {
  control: Control<T, unknown, O>;
  /** Also the input's id, so the label points at it. */
  name: N;
  label?: ReactNode;
  extra?: ReactNode;
  required?: boolean;
}

/** A FormField holding a NumberInput: a whole number typed as text, red while its rule fails. */
export function NumberField<T extends FieldValues, N extends FieldPath<T>, O extends FieldValues = T>({
  control,
  name,
  label,
  extra,
  required,
}: NumberFieldProps<T, N, O>) {
  return (
    <FormField control={control} name={name} label={label} extra={extra} required={required}>
      {(field, state) => (
        <NumberInput
          id={name}
          value={field.value as number | '' | null | undefined}
          onChange={field.onChange}
          onBlur={field.onBlur}
          status={state.error ? 'error' : undefined}
        />
      )}
    </FormField>
  );
}
