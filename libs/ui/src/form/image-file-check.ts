import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '@studio/contracts/src/catalog/catalog-constants';

/** PNG, JPEG or GIF of at most 4.5 MB (spec 000 §5); the server judges the bytes again. */
export function isAcceptableImage(file: File): boolean {
  return imageFileRefusal(file) === null;
}

/**
 * Why a picked file is not uploaded, or null when it may be (issue 25: a 27 MB image was ignored
 * with no word). A failed upload itself still shows no message (spec 000 §8); a file refused before
 * any upload says why.
 */
export function imageFileRefusal(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return `${file.name} is not a PNG, JPEG or GIF image.`;
  if (file.size > MAX_IMAGE_BYTES)
    return `${file.name} is ${(file.size / (1024 * 1024)).toFixed(1)} MB: an image is at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`;
  return null;
}
