import { Input } from '../antd/antd-components';

interface NumberInputProps {
  id: string;
  value: number | '' | null | undefined;
  onChange: (value: number | '') => void;
  onBlur?: () => void;
  status?: 'error';
  prefix?: string;
}

/** A number typed as text: empty stays '' so the contract's "required" message applies. */
export function NumberInput({ id, value, onChange, onBlur, status, prefix }: NumberInputProps) {
  return (
    <Input
      id={id}
      inputMode="numeric"
      status={status}
      prefix={prefix}
      value={value === null || value === undefined ? '' : String(value)}
      onBlur={onBlur}
      onChange={(event) => {
        const text = event.target.value.trim();
        onChange(text === '' || Number.isNaN(Number(text)) ? '' : Number(text));
      }}
    />
  );
}
