import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  DISCOUNT_FORM_DEFAULTS,
  DISCOUNT_MESSAGES,
  DISCOUNT_TIME_CHOICES,
  discountFormSchema,
  toDiscountPayload,
  type DiscountFormInput,
} from '@studio/contracts';
import {
  App,
  Button,
  DatePicker,
  DrawerSection,
  DrawerShell,
  Flex,
  Form,
  FormField,
  Input,
  LoadingSkeleton,
  Radio,
  Result,
  Select,
  Switch,
  dayjs,
  serverMessage,
  useList,
  useOrganizationTimezone,
  useSkeletonDelay,
  zodResolver,
  type ActivityListItem,
  type DrawerProps,
} from '@studio/ui';
import { fetchPromoCode, savePromoCode } from './discount.api';
import { promoCodeToForm } from './discount-form-values';

export interface DiscountDrawerData {
  /** Set to edit an existing discount. */
  promo_code_id?: string;
  /** Called after a successful save, e.g. to reload a list. */
  onSaved?: () => void;
}

type Loaded = 'loading' | 'ready' | 'failed';

/** New / Edit Discount (spec 000 §2, §3, §5): sections General, Pricing, Settings. */
export function DiscountDrawer({ data, close }: DrawerProps<DiscountDrawerData>) {
  const { message } = App.useApp();
  const timezone = useOrganizationTimezone();
  const editId = data.promo_code_id ?? null;
  const waiting = useSkeletonDelay();
  const [loaded, setLoaded] = useState<Loaded>(editId ? 'loading' : 'ready');
  const [formError, setFormError] = useState<string | null>(null);
  const { items: courses } = useList<
    ActivityListItem[] | { activities?: ActivityListItem[] },
    ActivityListItem
  >('/api/admin/activities', (answer) => (Array.isArray(answer) ? answer : answer.activities));

  const form = useForm<DiscountFormInput>({
    resolver: zodResolver(discountFormSchema),
    defaultValues: DISCOUNT_FORM_DEFAULTS,
  });
  const { control, reset, setError } = form;
  const [type, limited, hasStart, hasEnd] = useWatch({
    control,
    name: ['type', 'limit_to_course', 'has_start', 'has_end'],
  });

  useEffect(() => {
    if (!editId) return;
    fetchPromoCode(editId)
      .then((code) => {
        reset(promoCodeToForm(code, timezone));
        setLoaded('ready');
      })
      .catch((error: unknown) => {
        console.error('Could not load the discount', error);
        setLoaded('failed');
      });
  }, [editId, reset, timezone]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await savePromoCode(editId, toDiscountPayload(values, timezone));
      message.success(DISCOUNT_MESSAGES.saved);
      data.onSaved?.();
      close();
    } catch (error) {
      console.error('Saving the discount failed', error);
      message.error(DISCOUNT_MESSAGES.saveFailed);
      const fields = (error as { body?: { errors?: Record<string, string> } }).body?.errors;
      if (fields) {
        for (const [name, text] of Object.entries(fields)) {
          if (name in DISCOUNT_FORM_DEFAULTS) setError(name as keyof DiscountFormInput, { message: text });
        }
      } else {
        setFormError(serverMessage(error, DISCOUNT_MESSAGES.formError));
      }
    }
  });

  if (loaded === 'loading' || waiting) return <LoadingSkeleton />;
  if (loaded === 'failed') return <Result status="error" title="Could not load this discount" />;

  return (
    <form onSubmit={onSubmit} aria-label={editId ? 'Edit Discount' : 'New Discount'} noValidate>
      <DrawerShell
        title={editId ? 'Edit Discount' : 'New Discount'}
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button type="primary" htmlType="submit" loading={form.formState.isSubmitting}>
              Save
            </Button>
          </>
        }
      >
        <Form layout="vertical" component={false}>
          {formError ? (
            <div role="alert" style={{ color: '#cf1322', marginBottom: 12 }}>
              {formError}
            </div>
          ) : null}
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
