import { z } from 'zod';
import { multilineText, safeText } from '../safe-input';
import { FORM_FIELD_TYPES, OPTION_FIELD_TYPES, SINGLE_USE_FIELD_TYPES } from './catalog-constants';
import { COURSE_MESSAGES as M } from './course-messages';

export const formFieldOptionSchema = z
  .object({
    id: safeText().trim().min(1).max(64),
    value: safeText({ error: M.optionValue }).trim().min(1, M.optionValue).max(200),
  })
  .strict();

export const checkoutFormFieldSchema = z
  .object({
    id: safeText().trim().min(1).max(64),
    type: z.enum(FORM_FIELD_TYPES),
    label: safeText({ error: M.fieldLabel }).trim().min(1, M.fieldLabel).max(200),
    placeholder: safeText().max(200).optional().default(''),
    description: multilineText().max(2000).optional().default(''),
    required: z.boolean().optional().default(false),
    options: z.array(formFieldOptionSchema).max(100).optional().default([]),
  })
  .strict();
export type CheckoutFormField = z.infer<typeof checkoutFormFieldSchema>;

/** The builder's list rules: name, email and phone once each; select and radio need an option. */
export const checkoutFormFieldsSchema = z
  .array(checkoutFormFieldSchema)
  .max(50)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((field, index) => {
      if (SINGLE_USE_FIELD_TYPES.includes(field.type)) {
        if (seen.has(field.type))
          ctx.addIssue({ code: 'custom', path: [index, 'type'], message: M.fieldOnce(field.type) });
        seen.add(field.type);
      }
      if (OPTION_FIELD_TYPES.includes(field.type) && field.options.length === 0) {
        ctx.addIssue({ code: 'custom', path: [index, 'options'], message: M.fieldOptions });
      }
    });
  });

// The description's [text](url) links: zod-free, so the store's pages use them without zod.
export { parseDescriptionLinks, safeLinkHref, type DescriptionPart } from './description-links';
