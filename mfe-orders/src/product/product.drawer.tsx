import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import {
  CATEGORIES,
  LOYALTY_MESSAGES,
  PRODUCT_FORM_DEFAULTS,
  PRODUCT_GRANT_LABELS,
  PRODUCT_GRANT_PRICE_TYPE,
  PRODUCT_GRANTS,
  type ProductGrant,
  PRODUCT_MESSAGES,
  PRODUCT_PRICE_TYPES,
  PRODUCT_PRICE_TYPE_LABELS,
  RENEWAL_INTERVAL_UNITS,
  productFormSchema,
  type ProductFormValues,
  type ProductPayload,
  type ProductPriceType,
} from '@studio/contracts';
import {
  Alert,
  App,
  Button,
  DrawerSection,
  Flex,
  FormField,
  Input,
  LoadingSkeleton,
  MediaField,
  QueryGuard,
  setServerFieldErrors,
  Radio,
  Select,
  useDrawer,
  useQuery,
  useSkeletonDelay,
  useUnsavedChanges,
  zodResolver,
  type DrawerProps,
  LabeledSwitch,
  FormDrawer,
  NumberField,
  courseQueries,
  usePickerList,
} from '@studio/ui';
import { useLoyaltyProgram } from './loyalty-program';
import {
  productBody,
  productQueries,
  useCreateProduct,
  useUpdateProduct,
  type ProductDetail,
} from '../api/products';
import { PRODUCT_FIELDS, productToFormValues } from './product-form-values';

export interface ProductDrawerData {
  /** Set to edit an existing product. */
  product_id?: string;
}

/** Loads the product (edit mode) and the loyalty programme, then shows the form (spec 000 §2). */
export function ProductDrawer({ data, close }: DrawerProps<ProductDrawerData>) {
  const editId = data.product_id ?? null;
  const waiting = useSkeletonDelay();
  const loyalty = useLoyaltyProgram();
  const query = useQuery({
    ...productQueries.detail(editId ?? ''),
    enabled: Boolean(editId),
    // Read again on open: the form starts from a fresh copy, never one another drawer changed.
    refetchOnMount: 'always',
  });
  const pending = loyalty.loading || waiting;
  const form = (product: ProductDetail | null) => (
    <ProductForm
      key={editId ?? 'new'}
      product={product}
      loyaltyProgramActive={loyalty.active}
      close={close}
    />
  );
  if (!editId) return pending ? <LoadingSkeleton /> : form(null);
  return (
    <QueryGuard
      query={query}
      title="Could not load this product"
      pending={!query.isFetchedAfterMount || pending}
    >
      {form}
    </QueryGuard>
  );
}

interface ProductFormProps {
  product: ProductDetail | null;
  loyaltyProgramActive: boolean;
  close: () => void;
}

function ProductForm({ product, loyaltyProgramActive, close }: ProductFormProps) {
  const drawer = useDrawer();
  const { message } = App.useApp();
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const [formError, setFormError] = useState<string | null>(null);
  const [resolver] = useState(
    () =>
      zodResolver(productFormSchema({ loyaltyProgramActive })) as unknown as Resolver<
        ProductFormValues,
        unknown,
        ProductPayload
      >,
  );
  const form = useForm<ProductFormValues, unknown, ProductPayload>({
    resolver,
    defaultValues: product ? productToFormValues(product) : PRODUCT_FORM_DEFAULTS,
  });
  const { control, setValue, setError, formState } = form;
  // Closing with unsaved changes asks "Discard unsaved changes?" first (the drawer host consults this).
  useUnsavedChanges(formState.isDirty);
  const [priceType, earnPoints, grant, membershipUnlimited] = useWatch({
    control,
    name: ['priceType', 'earnPoints', 'grant', 'membershipUnlimited'],
  });
  const covers = grant === 'membership' || grant === 'pack';
  // The courses picker reads the courses list only while a grant can name courses; a failed load is logged.
  const { items: courses } = usePickerList(courseQueries.list(), (a) => a.activities, 'courses', covers);
  // Each price type offers the grants that fit it (a membership is a subscription's; a pack or a gift card a one-time product's).
  const grants = PRODUCT_GRANTS.filter((g) => g === 'none' || PRODUCT_GRANT_PRICE_TYPE[g] === priceType);
  const title = product ? 'Edit Product' : 'New Product';
  const revalidate = { shouldValidate: formState.isSubmitted, shouldDirty: true };

  const onSubmit = form.handleSubmit(async (payload) => {
    setFormError(null);
    try {
      const body = productBody(payload);
      if (product) await update.mutateAsync({ params: { path: { product_id: product.product_id } }, body });
      else await create.mutateAsync({ body });
      message.success(PRODUCT_MESSAGES.saved);
      close();
    } catch (error) {
      console.error('Saving the product failed', error);
      message.error(PRODUCT_MESSAGES.saveFailed);
      if (!setServerFieldErrors(error, setError, PRODUCT_FIELDS)) setFormError(PRODUCT_MESSAGES.saveFailed);
    }
  });

  const changePriceType = (next: ProductPriceType) => {
    setValue('priceType', next, revalidate);
    // A grant that does not fit the new price type is dropped (its fields are then ignored).
    const current = form.getValues('grant');
    if (current !== 'none' && PRODUCT_GRANT_PRICE_TYPE[current] !== next) setValue('grant', 'none', revalidate);
    // A lead magnet is usually free: an empty amount becomes 0 rather than an error.
    if (next === 'leadMagnet' && !form.getValues('amount').trim()) setValue('amount', '0', revalidate);
  };

  const toggleEarnPoints = (on: boolean) => {
    // Shown at once: with no active programme the rule's message appears under the toggle.
    setValue('earnPoints', on, { shouldDirty: true, shouldValidate: true });
    if (!on) setValue('rewardAmount', '', revalidate);
  };

  return (
    <FormDrawer
      title={title}
      onSubmit={onSubmit}
      close={close}
      submitting={formState.isSubmitting}
      actions={
        product ? (
          <Button onClick={() => drawer.open('share', { mode: 'product', product_id: product.product_id })}>
            Share
          </Button>
        ) : null
      }
    >
      {formError ? <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} /> : null}
      <DrawerSection title="General">
        <FormField control={control} name="productName" label="Name" required>
          {(field) => <Input {...field} id="productName" />}
        </FormField>
        <FormField control={control} name="productDescription" label="Description">
          {(field) => <Input.TextArea {...field} id="productDescription" rows={4} />}
        </FormField>
      </DrawerSection>

      <DrawerSection title="Pricing">
        <FormField control={control} name="priceType" label="Price type">
          {(field) => (
            <Radio.Group
              id="priceType"
              value={field.value}
              onChange={(event) => changePriceType(event.target.value as ProductPriceType)}
              options={PRODUCT_PRICE_TYPES.map((value) => ({
                value,
                label: PRODUCT_PRICE_TYPE_LABELS[value],
              }))}
            />
          )}
        </FormField>
        <FormField control={control} name="amount" label="Amount" required={priceType !== 'leadMagnet'}>
          {(field) => <Input {...field} id="amount" prefix="$" inputMode="decimal" />}
        </FormField>
        {priceType === 'leadMagnet' ? (
          <FormField
            control={control}
            name="downloadUrl"
            label="Download address"
            extra="Mailed to whoever asks for it at the store."
          >
            {(field) => (
              <Input {...field} id="downloadUrl" type="url" inputMode="url" placeholder="https://" />
            )}
          </FormField>
        ) : null}
        {priceType === 'subscription' ? (
          <Flex gap={12}>
            <NumberField control={control} name="renewalIntervalQuantity" label="Renews every" required />
            <FormField control={control} name="renewalIntervalUnits" label="Unit" required>
              {(field, state) => (
                <Select
                  id="renewalIntervalUnits"
                  aria-label="Renewal unit"
                  status={state.error ? 'error' : undefined}
                  value={field.value || undefined}
                  onChange={field.onChange}
                  style={{ width: 140 }}
                  options={RENEWAL_INTERVAL_UNITS.map((unit) => ({ value: unit, label: unit }))}
                />
              )}
            </FormField>
          </Flex>
        ) : null}
      </DrawerSection>

      <DrawerSection title="What it grants">
        <FormField
          control={control}
          name="grant"
          label="Buying it grants"
          extra={grant === 'giftCard' ? 'Its value is the price; the buyer names the recipient at the store.' : undefined}
        >
          {(field) => (
            <Radio.Group
              id="grant"
              name="grant"
              value={field.value}
              onChange={(event) => setValue('grant', event.target.value as ProductGrant, revalidate)}
              options={grants.map((value) => ({ value, label: PRODUCT_GRANT_LABELS[value] }))}
            />
          )}
        </FormField>
        {grant === 'membership' ? (
          <>
            <FormField control={control} name="membershipUnlimited">
              {(field) => (
                <LabeledSwitch
                  label="Unlimited bookings"
                  checked={field.value}
                  onChange={(on) => setValue('membershipUnlimited', on, revalidate)}
                />
              )}
            </FormField>
            {membershipUnlimited ? null : (
              <NumberField control={control} name="membershipBookings" label="Bookings per billing period" required />
            )}
          </>
        ) : null}
        {grant === 'pack' ? (
          <>
            <NumberField control={control} name="packCredits" label="Credits" required />
            <Flex gap={12}>
              <NumberField control={control} name="packExpiresAfterQuantity" label="Expires after" />
              <FormField control={control} name="packExpiresAfterUnit" label="Expiry unit" extra="Both empty: never expires.">
                {(field, state) => (
                  <Select
                    id="packExpiresAfterUnit"
                    aria-label="Expiry unit"
                    allowClear
                    status={state.error ? 'error' : undefined}
                    value={field.value || undefined}
                    onChange={(value?: string) => setValue('packExpiresAfterUnit', (value ?? '') as ProductFormValues['packExpiresAfterUnit'], revalidate)}
                    style={{ width: 140 }}
                    options={RENEWAL_INTERVAL_UNITS.map((unit) => ({ value: unit, label: unit }))}
                  />
                )}
              </FormField>
            </Flex>
          </>
        ) : null}
        {covers ? (
          <>
            <FormField control={control} name="coversActivityIds" label="Courses" extra="None chosen: all courses.">
              {(field) => (
                <Select
                  id="coversActivityIds"
                  aria-label="Courses"
                  mode="multiple"
                  allowClear
                  value={field.value}
                  onChange={(ids: string[]) => setValue('coversActivityIds', ids, revalidate)}
                  placeholder="All courses"
                  showSearch={{ optionFilterProp: 'label' }}
                  options={courses.map((course) => ({ value: course.activity_id, label: course.name }))}
                />
              )}
            </FormField>
            <FormField control={control} name="coversCategoryIds" label="Categories" extra="None chosen: all categories.">
              {(field) => (
                <Select
                  id="coversCategoryIds"
                  aria-label="Categories"
                  mode="multiple"
                  allowClear
                  value={field.value}
                  onChange={(ids: number[]) => setValue('coversCategoryIds', ids, revalidate)}
                  placeholder="All categories"
                  options={CATEGORIES.map((c) => ({ value: c.category_id, label: c.name }))}
                />
              )}
            </FormField>
          </>
        ) : null}
      </DrawerSection>

      <DrawerSection title="Media">
        <FormField control={control} name="images" label="Images">
          {(field) => (
            <MediaField
              subject="Product"
              value={field.value}
              onChange={(images) => setValue('images', images, revalidate)}
            />
          )}
        </FormField>
      </DrawerSection>

      <DrawerSection title="Loyalty">
        <FormField control={control} name="earnPoints" extra={LOYALTY_MESSAGES.rule}>
          {(field) => (
            <LabeledSwitch label="Earn loyalty points" checked={field.value} onChange={toggleEarnPoints} />
          )}
        </FormField>
        {earnPoints ? (
          <NumberField control={control} name="rewardAmount" label="Reward amount" required />
        ) : null}
      </DrawerSection>
    </FormDrawer>
  );
}
