import { useForm, useWatch } from 'react-hook-form';
import {
  DISCOUNT_FORM_DEFAULTS,
  DISCOUNT_TIME_CHOICES,
  discountFormSchema,
  type DiscountFormInput,
} from '@studio/contracts';
import {
  useCancel,
  Alert,
  Button,
  DatePicker,
  DrawerSection,
  DrawerShell,
  Flex,
  Form,
  FormField,
  FEATURE_NOT_AVAILABLE,
  Input,
  Radio,
  Select,
  Switch,
  courseQueries,
  dayjs,
  usePickerList,
  useUnsavedChanges,
  zodResolver,
  type DrawerProps,
} from '@studio/ui';

export interface DiscountDrawerData {
  /** Set to edit an existing discount. */
  promo_code_id?: string;
  /** Called after a successful save, e.g. to reload a list. */
  onSaved?: () => void;
}

/**
 * New / Edit Discount (spec 000 §2, §3, §5): sections General, Pricing, Settings. The promo-code
 * API (GET, POST, PUT /api/admin/promo-code) is on the known-missing list (orders issue 9): the
 * drawer says discount codes are not available yet, Save is disabled and nothing is sent.
 */
export function DiscountDrawer({ data, close }: DrawerProps<DiscountDrawerData>) {
  const cancel = useCancel(close);
  const editId = data.promo_code_id ?? null;
  // Picker: a failed load is only logged and the list stays empty (spec 001 §8).
  const { items: courses } = usePickerList(courseQueries.list(), (a) => a.activities, 'courses');

  const form = useForm<DiscountFormInput>({
    resolver: zodResolver(discountFormSchema),
    defaultValues: DISCOUNT_FORM_DEFAULTS,
    // Save is disabled until the API exists, so the rules show as each field is left.
    mode: 'onTouched',
  });
  const { control } = form;
  // Closing with unsaved changes asks "Discard unsaved changes?" first (the drawer host consults this).
  useUnsavedChanges(form.formState.isDirty);
  const [type, limited, hasStart, hasEnd] = useWatch({
    control,
    name: ['type', 'limit_to_course', 'has_start', 'has_end'],
  });

  // No promo-code API yet: submitting does nothing (the Save button is disabled as well).
  const onSubmit = (event: { preventDefault: () => void }) => event.preventDefault();

  return (
    <form onSubmit={onSubmit} aria-label={editId ? 'Edit Discount' : 'New Discount'} noValidate>
      <DrawerShell
        title={editId ? 'Edit Discount' : 'New Discount'}
        footer={
          <>
            <Button onClick={cancel}>Cancel</Button>
            <Button type="primary" htmlType="submit" disabled>
              Save
            </Button>
          </>
        }
      >
        <Form layout="vertical" component={false}>
          <Alert type="info" showIcon title={FEATURE_NOT_AVAILABLE.discounts} style={{ marginBottom: 16 }} />
          <DrawerSection title="General">
            <FormField control={control} name="label" label="Label" required>
              {(field) => <Input {...field} id="label" aria-label="Label" />}
            </FormField>
            <FormField control={control} name="code" label="Code" required>
              {(field) => <Input {...field} id="code" aria-label="Code" />}
            </FormField>
          </DrawerSection>

          <DrawerSection title="Pricing">
            <FormField control={control} name="type" label="Discount type">
              {(field) => (
                <Radio.Group
                  value={field.value}
                  onChange={(event) => field.onChange(event.target.value)}
                  options={[
                    { value: 'dollar', label: 'Dollar amount' },
                    { value: 'percentage', label: 'Percentage' },
                  ]}
                />
              )}
            </FormField>
            <FormField control={control} name="value" label="Value" required>
              {(field) => (
                <Input
                  {...field}
                  id="value"
                  aria-label="Value"
                  inputMode="decimal"
                  prefix={type === 'dollar' ? '$' : undefined}
                  suffix={type === 'percentage' ? '%' : undefined}
                />
              )}
            </FormField>
          </DrawerSection>

          <DrawerSection title="Settings">
            <FormField control={control} name="limit_to_course" label="Limit to one course">
              {(field) => (
                <Switch checked={field.value} onChange={field.onChange} aria-label="Limit to one course" />
              )}
            </FormField>
            {limited ? (
              <FormField control={control} name="activity_id" label="Course" required>
                {(field) => (
                  <Select
                    id="activity_id"
                    aria-label="Course"
                    value={field.value ?? undefined}
                    onChange={(value: string) => field.onChange(value)}
                    placeholder="Select a course"
                    options={courses.map((course) => ({ value: course.activity_id, label: course.name }))}
                  />
                )}
              </FormField>
            ) : null}
            <FormField control={control} name="apply_logic" label="Apply discount">
              {(field) => (
                <Radio.Group
                  value={field.value}
                  onChange={(event) => field.onChange(event.target.value)}
                  options={[
                    { value: 'once', label: 'Once per order' },
                    { value: 'each', label: 'To each item' },
                  ]}
                />
              )}
            </FormField>
            <DateTimeRow
              control={control}
              enabledName="has_start"
              dateName="start_date"
              timeName="start_time"
              label="Start date"
              enabled={hasStart}
            />
            <DateTimeRow
              control={control}
              enabledName="has_end"
              dateName="end_date"
              timeName="end_time"
              label="End date"
              enabled={hasEnd}
            />
          </DrawerSection>
        </Form>
      </DrawerShell>
    </form>
  );
}

interface DateTimeRowProps {
  control: ReturnType<typeof useForm<DiscountFormInput>>['control'];
  enabledName: 'has_start' | 'has_end';
  dateName: 'start_date' | 'end_date';
  timeName: 'start_time' | 'end_time';
  label: string;
  enabled: boolean;
}

/** An optional date plus an hourly time, both read in the organization's zone. */
function DateTimeRow({ control, enabledName, dateName, timeName, label, enabled }: DateTimeRowProps) {
  return (
    <>
      <FormField control={control} name={enabledName} label={`Set ${label.toLowerCase()}`}>
        {(field) => (
          <Switch checked={field.value} onChange={field.onChange} aria-label={`Set ${label.toLowerCase()}`} />
        )}
      </FormField>
      {enabled ? (
        <Flex gap={12}>
          <FormField control={control} name={dateName} label={label} required>
            {(field) => (
              <DatePicker
                id={dateName}
                aria-label={label}
                value={field.value ? dayjs(field.value) : null}
                onChange={(value) => field.onChange(value ? value.format('YYYY-MM-DD') : '')}
              />
            )}
          </FormField>
          <FormField control={control} name={timeName} label="Time">
            {(field) => (
              <Select
                id={timeName}
                aria-label={`${label} time`}
                value={field.value}
                onChange={(value: string) => field.onChange(value)}
                options={DISCOUNT_TIME_CHOICES}
                style={{ width: 130 }}
              />
            )}
          </FormField>
        </Flex>
      ) : null}
    </>
  );
}
