import type { ReactElement, ReactNode } from 'react';
import { Form } from 'antd';
import {
  Controller,
  type Control,
  type ControllerFieldState,
  type ControllerRenderProps,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';

interface FormFieldProps<T extends FieldValues, N extends FieldPath<T>, O extends FieldValues = T> {
  /** O: what the resolver outputs (a form typed in dollars may submit cents). */
  control: Control<T, unknown, O>;
  name: N;
  label?: ReactNode;
  extra?: ReactNode;
  required?: boolean;
  children: (field: ControllerRenderProps<T, N>, state: ControllerFieldState) => ReactElement;
}

/**
 * The react-hook-form + antd glue, written once: the RHF field drives the antd input and its
 * error message becomes the Form.Item's help text.
 */
export function FormField<T extends FieldValues, N extends FieldPath<T>, O extends FieldValues = T>({
  control,
  name,
  label,
  extra,
  required,
  children,
}: FormFieldProps<T, N, O>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Form.Item
          label={label}
          required={required}
          extra={extra}
          help={fieldState.error?.message}
          validateStatus={fieldState.error ? 'error' : undefined}
          htmlFor={String(name)}
        >
          {children(field, fieldState)}
        </Form.Item>
      )}
    />
  );
}
