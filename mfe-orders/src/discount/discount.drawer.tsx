import { useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import {
  DISCOUNT_FORM_DEFAULTS,
  DISCOUNT_MESSAGES,
  DISCOUNT_TIME_CHOICES,
  discountFormSchema,
  discountToForm,
  toDiscountPayload,
  type DiscountFormInput,
} from '@studio/contracts';
import {
  DATE_INPUT_FORMAT,
  WALL_DATE_FORMAT,
  App,
  DatePicker,
  DrawerSection,
  Flex,
  FormField,
  Input,
  QueryGuard,
  setServerFieldErrors,
  Radio,
  Select,
  Switch,
  Tag,
  courseQueries,
  dayjs,
  useOrganizationTimezone,
  usePickerList,
  useQuery,
  useSkeletonDelay,
  useUnsavedChanges,
  zodResolver,
  type DrawerProps,
  FormDrawer,
} from '@studio/ui';
import { DISCOUNT_API_FIELDS, discountQueries, useSaveDiscount, type PromoCode } from '../api/discounts';

export interface DiscountDrawerData {
  /** Set to edit an existing discount (the Discounts page's rows). */
  id?: string;
}

const STATUS_COLOR = { scheduled: 'blue', active: 'green', expired: 'default' } as const;

/**
 * New / Edit Discount (spec 000 §2, §3, §5): sections General, Pricing, Settings. Editing loads the
 * code first (a failure shows QueryError with Retry); the form starts from that fresh read.
 */
export function DiscountDrawer({ data, close }: DrawerProps<DiscountDrawerData>) {
  if (!data.id) return <DiscountForm discount={null} close={close} />;
  return <EditDiscount id={data.id} close={close} />;
}

function EditDiscount({ id, close }: { id: string; close: () => void }) {
  const waiting = useSkeletonDelay();
  const query = useQuery({ ...discountQueries.detail(id), refetchOnMount: 'always' });
  return (
    <QueryGuard
      query={query}
      title="Could not load this discount"
      pending={!query.isFetchedAfterMount || waiting}
    >
      {(discount) => <DiscountForm discount={discount} close={close} />}
    </QueryGuard>
  );
}

function DiscountForm({ discount, close }: { discount: PromoCode | null; close: () => void }) {
  const { message } = App.useApp();
  const save = useSaveDiscount(discount?.id ?? null);
  const timezone = useOrganizationTimezone();
  const [formError, setFormError] = useState<string | null>(null);
  // Picker: a failed load is only logged and the list stays empty (spec 001 §8).
  const { items: courses } = usePickerList(courseQueries.list(), (a) => a.activities, 'courses');

  const form = useForm<DiscountFormInput>({
    resolver: zodResolver(discountFormSchema),
    defaultValues: discount ? discountToForm(discount, timezone) : DISCOUNT_FORM_DEFAULTS,
    mode: 'onTouched',
  });
  const { control, formState, setError } = form;
  // Closing with unsaved changes asks "Discard unsaved changes?" first (the drawer host consults this).
  useUnsavedChanges(formState.isDirty);
  const [type, limited, hasStart, hasEnd] = useWatch({
    control,
    name: ['type', 'limit_to_course', 'has_start', 'has_end'],
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await save.mutateAsync(toDiscountPayload(values, timezone));
      message.success(DISCOUNT_MESSAGES.saved);
      close();
    } catch (error) {
      console.error('Saving the discount failed', error);
      message.error(DISCOUNT_MESSAGES.saveFailed);
      setServerFieldErrors(error, setError, DISCOUNT_API_FIELDS);
      setFormError(DISCOUNT_MESSAGES.formError);
    }
  });

  const title = discount ? 'Edit Discount' : 'New Discount';
  return (
    <FormDrawer
      title={title}
      extra={
        discount ? (
          <Tag color={STATUS_COLOR[discount.status]}>
            {discount.status[0].toUpperCase() + discount.status.slice(1)}
          </Tag>
        ) : undefined
      }
      onSubmit={onSubmit}
      close={close}
      submitting={formState.isSubmitting}
      formError={formError}
    >
      <DrawerSection title="General">
        <FormField control={control} name="label" label="Label" required>
          {(field) => <Input {...field} id="label" aria-label="Label" maxLength={200} />}
        </FormField>
        <FormField control={control} name="code" label="Code" required>
          {(field) => <Input {...field} id="code" aria-label="Code" maxLength={50} />}
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
                onBlur={field.onBlur}
                placeholder="Select a course"
                showSearch={{ optionFilterProp: 'label' }}
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
          timezone={timezone}
        />
        <DateTimeRow
          control={control}
          enabledName="has_end"
          dateName="end_date"
          timeName="end_time"
          label="End date"
          enabled={hasEnd}
          timezone={timezone}
        />
      </DrawerSection>
    </FormDrawer>
  );
}

interface DateTimeRowProps {
  control: Control<DiscountFormInput>;
  enabledName: 'has_start' | 'has_end';
  dateName: 'start_date' | 'end_date';
  timeName: 'start_time' | 'end_time';
  label: string;
  enabled: boolean;
  timezone: string;
}

/** An optional date plus an hour from 1 AM to 11 PM, both read in the organization's zone. */
function DateTimeRow({
  control,
  enabledName,
  dateName,
  timeName,
  label,
  enabled,
  timezone,
}: DateTimeRowProps) {
  return (
    <>
      <FormField control={control} name={enabledName} label={`Set ${label.toLowerCase()}`}>
        {(field) => (
          <Switch checked={field.value} onChange={field.onChange} aria-label={`Set ${label.toLowerCase()}`} />
        )}
      </FormField>
      {enabled ? (
        <Flex gap={12} align="start">
          <FormField control={control} name={dateName} label={label} required>
            {(field) => (
              <DatePicker
                id={dateName}
                aria-label={label}
                format={DATE_INPUT_FORMAT}
                value={field.value ? dayjs(field.value, WALL_DATE_FORMAT) : null}
                onChange={(value) => field.onChange(value ? value.format(WALL_DATE_FORMAT) : '')}
                onBlur={field.onBlur}
                // Enter commits the typed date; it must not also submit the drawer's form.
                onKeyDown={(event) => {
                  if (event.key === 'Enter') event.preventDefault();
                }}
              />
            )}
          </FormField>
          <FormField control={control} name={timeName} label={`Time (${timezone})`}>
            {(field) => (
              <Select
                id={timeName}
                aria-label={`${label} time`}
                value={field.value}
                onChange={(value: string) => field.onChange(value)}
                options={[...DISCOUNT_TIME_CHOICES]}
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: 130 }}
              />
            )}
          </FormField>
        </Flex>
      ) : null}
    </>
  );
}
