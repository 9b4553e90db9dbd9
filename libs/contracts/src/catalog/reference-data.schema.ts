import { z } from 'zod';
import { multilineText, safeText } from '../safe-input';
import { requiredUnless } from '../required-when';
import { isValidTimeZone } from '../time';

export const REFERENCE_MESSAGES = {
  addressRequired: 'An address is required.',
  timezone: 'Choose a valid time zone.',
  onlineToggle: 'Expected true or false.',
  instructorNameRequired: 'A first name is required.',
  photoUrl: 'Upload the photo with the image uploader.',
  waiverNameRequired: 'A waiver name is required.',
  waiverBodyRequired: 'Write the waiver text or attach its document.',
  documentUrl: "Link the waiver's document with an https:// address, or upload it.",
  locationCreated: 'Location saved',
  instructorCreated: 'Instructor saved',
  waiverCreated: 'Waiver added',
  saveFailed: 'Could not save. Please try again.',
} as const;

const R = REFERENCE_MESSAGES;

export const locationSchema = z
  .object({
    name: safeText().trim().max(200).optional().default(''),
    address: safeText({ error: R.addressRequired }).trim().min(1, R.addressRequired).max(500),
    timezone: safeText({ error: R.timezone }).max(100, R.timezone).refine(isValidTimeZone, R.timezone),
    /** Classes here happen online: their sessions get a video meeting when Zoom is connected. */
    online: z.boolean({ error: R.onlineToggle }).optional().default(false),
  })
  .strict();
export type LocationInput = z.input<typeof locationSchema>;

export const instructorSchema = z
  .object({
    first_name: safeText({ error: R.instructorNameRequired }).trim().min(1, R.instructorNameRequired).max(100),
    last_name: safeText().trim().max(100).optional().default(''),
    photo_url: safeText().max(2048).nullable().optional(),
  })
  .strict();
export type InstructorInput = z.input<typeof instructorSchema>;

/** The URL the API answers for an upload: /api/media/<organization id>/<file id>.<png|jpg|gif>. */
export const MEDIA_URL_PATTERN = /^\/api\/media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.(png|jpg|gif)$/;
/** The address of an uploaded PDF document (a waiver's), as POST /api/admin/upload/document answers it. */
export const DOCUMENT_URL_PATTERN = /^\/api\/media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.pdf$/;
/** Largest PDF document an upload takes. */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;
/** The document upload's answers (a waiver's PDF), used by the API and the New waiver page. */
export const DOCUMENT_UPLOAD_MESSAGES = {
  missing: 'Choose a PDF document to upload.',
  type: 'Only PDF documents can be uploaded.',
  size: 'Documents can be at most 8 MB.',
  documentNotFound: 'Document not found',
  uploaded: 'Document uploaded',
  failed: 'The document could not be uploaded.',
} as const;

/** An absolute https:// URL with a host and no credentials in it. */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * A waiver's document: an https:// link, or one of the organization's own uploads (the API
 * checks the upload is the caller's). No http://, javascript:, data: or other-host relative links.
 */
export const waiverDocumentUrlSchema = safeText({ error: R.documentUrl })
  .max(2048, R.documentUrl)
  .refine((v) => isHttpsUrl(v) || MEDIA_URL_PATTERN.test(v) || DOCUMENT_URL_PATTERN.test(v), R.documentUrl);

export const waiverSchema = z
  .object({
    name: safeText({ error: R.waiverNameRequired }).trim().min(1, R.waiverNameRequired).max(200),
    body: multilineText().max(100000).optional().default(''),
    document_url: waiverDocumentUrlSchema.nullable().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.body.trim() && !v.document_url) ctx.addIssue({ code: 'custom', path: ['body'], message: R.waiverBodyRequired });
  })
  // The rule above, for the OpenAPI document: body is required unless a document_url is given.
  .meta(
    requiredUnless('body', {
      properties: { document_url: { type: 'string', minLength: 1 } },
      required: ['document_url'],
    }),
  );
export type WaiverInput = z.input<typeof waiverSchema>;
