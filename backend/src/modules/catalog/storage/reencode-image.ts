import type { Sharp } from 'sharp';

/** Larger images are refused before they are decoded (a small PNG can expand to gigabytes). */
export const MAX_IMAGE_PIXELS = 50_000_000;

export class UnreadableImageError extends Error {}
export class ImageTooLargeError extends Error {}

/**
 * Decodes the upload and encodes it again in its own format, so what is stored is only pixels:
 * - bytes a decoder ignores are dropped, so a polyglot (a GIF header followed by HTML, a script
 *   in a comment block) is not kept and can never be served as something else;
 * - metadata (EXIF with its GPS position, XMP, comments) is not written again: sharp writes none
 *   unless asked. A JPEG is first turned upright from its EXIF orientation, which goes with it.
 * GIF animations keep their frames.
 */
export async function reencodeImage(bytes: Buffer, type: string): Promise<Buffer> {
  // Loaded on the first upload, not at boot: sharp and libvips cost the start close to a second.
  const { default: sharp } = await import('sharp');
  const animated = type === 'image/gif';
  let image: Sharp;
  try {
    image = sharp(bytes, { animated, limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
    const { width, height, pages } = await image.metadata();
    if (!width || !height) throw new UnreadableImageError('no dimensions');
    if (width * height * (pages ?? 1) > MAX_IMAGE_PIXELS) throw new ImageTooLargeError(`${width}x${height}x${pages ?? 1}`);
  } catch (error) {
    if (error instanceof ImageTooLargeError) throw error;
    if (/pixel limit/i.test(String(error))) throw new ImageTooLargeError(String(error));
    throw new UnreadableImageError(String(error));
  }
  const pipeline = image.timeout({ seconds: 20 });
  try {
    if (type === 'image/png') return await pipeline.png().toBuffer();
    if (type === 'image/jpeg') return await pipeline.rotate().jpeg({ quality: 90 }).toBuffer();
    if (type === 'image/gif') return await pipeline.gif().toBuffer();
  } catch (error) {
    if (/pixel limit/i.test(String(error))) throw new ImageTooLargeError(String(error));
    throw new UnreadableImageError(String(error));
  }
  throw new UnreadableImageError(`not an image type we store: ${type}`);
}
