import type { Control } from 'react-hook-form';
import type { PriceType } from '@studio/contracts';
import { DrawerSection, FormField, Input, Radio } from '@studio/ui';
import { CheckoutFormBuilder, type FieldListErrors } from './checkout-form-builder';
import type { CourseSectionValues } from './course-form-values';
import { PriceTypeRadio } from './price-type-radio';
import { InstructorSelect, LocationSelect } from './reference-selects';

/* The parts of the New and Edit Course forms that are the same in both. */

type SectionProps = { control: Control<CourseSectionValues> };

/** Name and description. */
export function CourseGeneralSection({ control }: SectionProps) {
  return (
    <DrawerSection title="General">
      <FormField control={control} name="name" label="Name" required>
        {(field) => <Input {...field} id="name" />}
      </FormField>
      <FormField control={control} name="description" label="Description" required>
        {(field) => <Input.TextArea {...field} id="description" rows={4} />}
      </FormField>
    </DrawerSection>
  );
}

/** The price type, and the price while the course is not free. */
export function CoursePriceFields({
  control,
  priceType,
  onPriceTypeChange,
  priceNote,
}: SectionProps & {
  priceType: PriceType;
  onPriceTypeChange: (next: PriceType) => void;
  /** Said under the price (Edit Course: a changed price does not reach sessions already scheduled). */
  priceNote?: string;
}) {
  return (
    <>
      <FormField control={control} name="priceType" label="Price type">
        {(field) => <PriceTypeRadio value={field.value} onChange={onPriceTypeChange} />}
      </FormField>
      {priceType === 'standard' ? (
        <FormField control={control} name="price" label="Price" required extra={priceNote}>
          {(field) => <Input {...field} id="price" prefix="$" inputMode="decimal" />}
        </FormField>
      ) : null}
    </>
  );
}

/** Where the course takes place, then who teaches it: a section each. */
export function CourseLocationAndInstructorSections({ control }: SectionProps) {
  return (
    <>
      <DrawerSection title="Location">
        <FormField control={control} name="location_id" label="Location" required>
          {(field, state) => (
            <LocationSelect
              id="location_id"
              value={field.value}
              onChange={field.onChange}
              status={state.error ? 'error' : undefined}
            />
          )}
        </FormField>
      </DrawerSection>

      <DrawerSection title="Instructor">
        <FormField control={control} name="instructor_id" label="Instructor" required>
          {(field, state) => (
            <InstructorSelect
              id="instructor_id"
              value={field.value}
              onChange={field.onChange}
              status={state.error ? 'error' : undefined}
            />
          )}
        </FormField>
      </DrawerSection>
    </>
  );
}

/** The questions asked at checkout, and whether once per order or per ticket. */
export function CheckoutFormSection({ control }: SectionProps) {
  return (
    <DrawerSection title="Checkout Form">
      <FormField control={control} name="checkoutFormFields">
        {(field, state) => (
          <CheckoutFormBuilder
            value={field.value}
            onChange={field.onChange}
            errors={state.error as FieldListErrors}
          />
        )}
      </FormField>
      <FormField control={control} name="formCollectionType" label="Collect the form">
        {(field) => (
          <Radio.Group
            id="formCollectionType"
            value={field.value}
            onChange={(e) => field.onChange(e.target.value)}
            options={[
              { value: 'order', label: 'Once per order' },
              { value: 'ticket', label: 'Once per ticket' },
            ]}
          />
        )}
      </FormField>
    </DrawerSection>
  );
}
