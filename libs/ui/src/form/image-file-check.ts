import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '@studio/contracts/src/catalog/catalog-constants';

/** PNG, JPEG or GIF of at most 4.5 MB (spec 000 §5); the server judges the bytes again. */
export function isAcceptableImage(file: File): boolean {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(file.type) && file.size <= MAX_IMAGE_BYTES;
}
