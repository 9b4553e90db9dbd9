import {
  FORM_FIELD_TYPES,
  OPTION_FIELD_TYPES,
  type CheckoutFormField,
  type FormFieldType,
} from '@studio/contracts';
import { Button, Card, Checkbox, Dropdown, Flex, Form, Input, Typography } from '@studio/ui';
import { DescriptionPreview } from './description-preview';
import { FIELD_TYPE_LABELS, isUsedUp, newField, newOption } from './checkout-fields';

/** react-hook-form's nested errors for the field list: per index, per key. */
export type FieldListErrors =
  | { message?: string; [index: number]: Record<string, { message?: string } | undefined> | undefined }
  | undefined;

interface BuilderProps {
  value: CheckoutFormField[];
  onChange: (fields: CheckoutFormField[]) => void;
  errors?: FieldListErrors;
}

/** Checkout form builder (spec 000 §3, §5): custom fields of eight types, options for select and radio. */
export function CheckoutFormBuilder({ value, onChange, errors }: BuilderProps) {
  const update = (index: number, patch: Partial<CheckoutFormField>) =>
    onChange(value.map((f, i) => (i === index ? { ...f, ...patch } : f)));

  const menu = FORM_FIELD_TYPES.map((type) => ({
    key: type,
    label: FIELD_TYPE_LABELS[type],
    disabled: isUsedUp(type, value),
  }));

  return (
    <Flex vertical gap={12}>
      {value.map((field, index) => {
        const fieldErrors = errors?.[index];
        const labelError = fieldErrors?.label?.message;
        const problem = fieldErrors?.type?.message ?? fieldErrors?.options?.message;
        return (
          <Card
            key={field.id}
            size="small"
            title={FIELD_TYPE_LABELS[field.type]}
            aria-label={`Checkout field ${index + 1}`}
            extra={
              <Button
                size="small"
                danger
                aria-label={`Remove field ${index + 1}`}
                onClick={() => onChange(value.filter((_, i) => i !== index))}
              >
                Remove
              </Button>
            }
          >
            <Form.Item
              label="Label"
              help={labelError}
              validateStatus={labelError ? 'error' : undefined}
              htmlFor={`${field.id}-label`}
            >
              <Input
                id={`${field.id}-label`}
                value={field.label}
                onChange={(e) => update(index, { label: e.target.value })}
              />
            </Form.Item>
            <Form.Item label="Placeholder" htmlFor={`${field.id}-placeholder`}>
              <Input
                id={`${field.id}-placeholder`}
                value={field.placeholder}
                onChange={(e) => update(index, { placeholder: e.target.value })}
              />
            </Form.Item>
            <Form.Item
              label="Description"
              htmlFor={`${field.id}-description`}
              extra="Links: [text](https://example.com)"
            >
              <Input.TextArea
                id={`${field.id}-description`}
                rows={2}
                value={field.description}
                onChange={(e) => update(index, { description: e.target.value })}
              />
            </Form.Item>
            <DescriptionPreview text={field.description} />
            <Checkbox
              checked={field.required}
              onChange={(e) => update(index, { required: e.target.checked })}
            >
              Required
            </Checkbox>
            {OPTION_FIELD_TYPES.includes(field.type) ? (
              <OptionList
                fieldIndex={index}
                options={field.options}
                onChange={(options) => update(index, { options })}
              />
            ) : null}
            {problem ? (
              <Typography.Text type="danger" role="alert">
                {problem}
              </Typography.Text>
            ) : null}
          </Card>
        );
      })}
      <Dropdown
        trigger={['click']}
        menu={{
          items: menu,
          onClick: ({ key }) => onChange([...value, newField(key as FormFieldType)]),
        }}
      >
        <Button>Add field</Button>
      </Dropdown>
    </Flex>
  );
}

function OptionList({
  fieldIndex,
  options,
  onChange,
}: {
  fieldIndex: number;
  options: CheckoutFormField['options'];
  onChange: (options: CheckoutFormField['options']) => void;
}) {
  return (
    <Flex vertical gap={4} style={{ marginTop: 8 }}>
      <Typography.Text strong>Options</Typography.Text>
      {options.map((option, i) => (
        <Flex key={option.id} gap={4}>
          <Input
            aria-label={`Field ${fieldIndex + 1} option ${i + 1}`}
            value={option.value}
            onChange={(e) => onChange(options.map((o, j) => (j === i ? { ...o, value: e.target.value } : o)))}
          />
          <Button
            aria-label={`Remove field ${fieldIndex + 1} option ${i + 1}`}
            onClick={() => onChange(options.filter((_, j) => j !== i))}
          >
            ✕
          </Button>
        </Flex>
      ))}
      <Button size="small" onClick={() => onChange([...options, newOption()])} style={{ alignSelf: 'start' }}>
        Add option
      </Button>
    </Flex>
  );
}
