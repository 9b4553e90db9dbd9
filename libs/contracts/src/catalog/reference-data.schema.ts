import { z } from 'zod';
import { isValidTimeZone } from '../time';

export const REFERENCE_MESSAGES = {
  addressRequired: 'An address is required.',
  timezone: 'Choose a valid time zone.',
  instructorNameRequired: 'A first name is required.',
  photoUrl: 'Upload the photo with the image uploader.',
  waiverNameRequired: 'A waiver name is required.',
  waiverBodyRequired: 'Write the waiver text or attach its document.',
  locationCreated: 'Location saved',
  instructorCreated: 'Instructor saved',
  waiverCreated: 'Waiver added',
  saveFailed: 'Could not save. Please try again.',
} as const;

const R = REFERENCE_MESSAGES;

export const locationSchema = z
  .object({
    name: z.string().trim().max(200).optional().default(''),
    address: z.string({ error: R.addressRequired }).trim().min(1, R.addressRequired).max(500),
    timezone: z.string({ error: R.timezone }).refine(isValidTimeZone, R.timezone),
  })
  .strict();
export type LocationInput = z.input<typeof locationSchema>;

export const instructorSchema = z
  .object({
    first_name: z.string({ error: R.instructorNameRequired }).trim().min(1, R.instructorNameRequired).max(100),
    last_name: z.string().trim().max(100).optional().default(''),
    photo_url: z.string().max(2048).nullable().optional(),
  })
  .strict();
export type InstructorInput = z.input<typeof instructorSchema>;

export const waiverSchema = z
  .object({
    name: z.string({ error: R.waiverNameRequired }).trim().min(1, R.waiverNameRequired).max(200),
    body: z.string().max(100000).optional().default(''),
    document_url: z.string().max(2048).nullable().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.body.trim() && !v.document_url) ctx.addIssue({ code: 'custom', path: ['body'], message: R.waiverBodyRequired });
  });
export type WaiverInput = z.input<typeof waiverSchema>;
