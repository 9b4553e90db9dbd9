import { useState, type CSSProperties } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { APP_PRIMARY_COLOR } from '../app/page-base';

// Laid out and coloured like antd's vertical Form.Item around an Input, in the app's primary colour.
// Like Form.Item, the message takes the place of the bottom margin rather than pushing the form down.
const FIELD = { marginBottom: 24 } as const;
const FIELD_WITH_HELP = { marginBottom: 2 } as const;
const LABEL = {
  display: 'block',
  paddingBottom: 8,
  fontSize: 14,
  lineHeight: '22px',
  color: 'rgba(0,0,0,0.88)',
} as const;
const HELP = { color: '#ff4d4f', fontSize: 14, lineHeight: '22px' } as const;
const PRIMARY = APP_PRIMARY_COLOR;
const ERROR = '#ff4d4f';

function inputStyle(focused: boolean, invalid: boolean): CSSProperties {
  const accent = invalid ? ERROR : PRIMARY;
  return {
    boxSizing: 'border-box',
    width: '100%',
    height: 32,
    padding: '4px 11px',
    fontSize: 14,
    lineHeight: '22px',
    fontFamily: 'inherit',
    color: 'rgba(0,0,0,0.88)',
    background: '#fff',
    border: `1px solid ${invalid ? ERROR : focused ? PRIMARY : '#d9d9d9'}`,
    borderRadius: 6,
    outline: 'none',
    boxShadow: focused ? `0 0 0 2px ${accent}1a` : 'none',
    transition: 'border-color 0.2s, box-shadow 0.2s',
  };
}

interface SignInFieldProps<T extends FieldValues, N extends FieldPath<T>> {
  control: Control<T>;
  name: N;
  label: string;
  type: 'email' | 'password';
  autoComplete: string;
}

/**
 * One field of the sign-in form: the RHF field drives a native input and the schema's message
 * shows under it. Plain markup on purpose: the sign-in page is the first load, and antd's Form.Item
 * and Input (with the ConfigProvider, the CSS-in-JS engine and the theme they need) are most of the
 * admin's JavaScript; they load with the admin area after sign-in.
 */
export function SignInField<T extends FieldValues, N extends FieldPath<T>>({
  control,
  name,
  label,
  type,
  autoComplete,
}: SignInFieldProps<T, N>) {
  const [focused, setFocused] = useState(false);
  const id = String(name);
  const helpId = `${id}-help`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const invalid = Boolean(fieldState.error);
        return (
          <div style={invalid ? FIELD_WITH_HELP : FIELD}>
            <label htmlFor={id} style={LABEL}>
              {label}
            </label>
            <input
              ref={field.ref}
              id={id}
              name={field.name}
              type={type}
              autoComplete={autoComplete}
              value={field.value ?? ''}
              disabled={field.disabled}
              onChange={(event) => field.onChange(event.target.value)}
              onFocus={() => setFocused(true)}
              onBlur={() => {
                setFocused(false);
                field.onBlur();
              }}
              aria-invalid={invalid}
              aria-describedby={invalid ? helpId : undefined}
              style={inputStyle(focused, invalid)}
            />
            {invalid ? (
              <div id={helpId} style={HELP}>
                {fieldState.error?.message}
              </div>
            ) : null}
          </div>
        );
      }}
    />
  );
}
