import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { DOCUMENT_UPLOAD_MESSAGES as D, MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES, withoutControlCharacters } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { Media } from './entities/media.entity';
import { detectImageType } from './storage/image-type';
import { ImageTooLargeError, reencodeImage } from './storage/reencode-image';
import { MEDIA_STORAGE, MediaStorage } from './storage/media-storage';

export const UPLOAD_MESSAGES = {
  missing: 'Choose an image to upload.',
  type: 'Only PNG, JPEG or GIF images can be uploaded.',
  size: 'Images can be at most 4.5 MB.',
  unreadable: 'The image could not be read. Upload a PNG, JPEG or GIF image.',
  pixels: 'Images can be at most 50 megapixels.',
  imageNotFound: 'Image not found',
} as const;

/** Uploaded images: stored through the storage port, owned by one organization. */
@Injectable()
export class MediaService {
  constructor(
    private readonly em: EntityManager,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {}

  async upload(ctx: RequestContext, file: { buffer: Buffer; size: number; originalname: string } | undefined): Promise<Media> {
    if (!file || file.size === 0) throw new ApiError(HttpStatus.BAD_REQUEST, UPLOAD_MESSAGES.missing, { file: UPLOAD_MESSAGES.missing });
    if (file.size > MAX_IMAGE_BYTES) throw new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.size, { file: UPLOAD_MESSAGES.size });
    // Judge the file by its bytes: a renamed text file is not an image, whatever it is called.
    const kind = detectImageType(file.buffer);
    if (!kind) throw new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.type, { file: UPLOAD_MESSAGES.type });
    // Only the re-encoded pixels are stored: no trailing payload, no EXIF location.
    let bytes: Buffer;
    try {
      bytes = await reencodeImage(file.buffer, kind.type);
    } catch (error) {
      if (error instanceof ImageTooLargeError) {
        throw new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.pixels, { file: UPLOAD_MESSAGES.pixels });
      }
      throw new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.unreadable, { file: UPLOAD_MESSAGES.unreadable });
    }
    const id = randomUUID();
    const key = `${ctx.organizationId}/${id}.${kind.ext}`;
    await this.storage.put(key, bytes, kind.type);
    const media = this.em.create(Media, {
      id,
      organization: this.em.getReference(Organization, ctx.organizationId),
      storageKey: key,
      url: `/api/media/${key}`,
      contentType: kind.type,
      byteSize: bytes.length,
      // The client's file name is kept for reference only: control characters (a NUL byte cannot be stored) are dropped.
      originalName: withoutControlCharacters(file.originalname).slice(0, 255),
      createdAt: new Date(),
    });
    try {
      await this.em.persistAndFlush(media);
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
    return media;
  }

  /**
   * A PDF document (a waiver's), judged by its bytes (`%PDF-` header and an `%%EOF` trailer), at most
   * MAX_DOCUMENT_BYTES. Stored as uploaded: it is served with a sandboxing policy, never as a page.
   */
  async uploadDocument(ctx: RequestContext, file: { buffer: Buffer; size: number; originalname: string } | undefined): Promise<Media> {
    if (!file || file.size === 0) throw new ApiError(HttpStatus.BAD_REQUEST, D.missing, { file: D.missing });
    if (file.size > MAX_DOCUMENT_BYTES) throw new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, D.size, { file: D.size });
    const head = file.buffer.subarray(0, 5).toString('latin1');
    const tail = file.buffer.subarray(Math.max(0, file.buffer.length - 1024)).toString('latin1');
    if (head !== '%PDF-' || !tail.includes('%%EOF')) throw new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, D.type, { file: D.type });
    return this.store(ctx, file.buffer, 'pdf', 'application/pdf', file.originalname);
  }

  /** The caller's uploaded document at this URL, or 404. */
  async requireDocument(ctx: RequestContext, url: string): Promise<Media> {
    const media = await this.em.findOne(Media, { url, organization: ctx.organizationId, contentType: 'application/pdf' });
    if (!media) throw notFound(D.documentNotFound);
    return media;
  }

  /** The bytes of the caller's uploaded document (for an e-signature provider), or null. */
  async readDocument(ctx: RequestContext, url: string): Promise<Buffer | null> {
    const media = await this.em.findOne(Media, { url, organization: ctx.organizationId, contentType: 'application/pdf' });
    const stream = media ? await this.storage.get(media.storageKey) : null;
    if (!stream) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  }

  private async store(ctx: RequestContext, bytes: Buffer, ext: string, type: string, originalName: string): Promise<Media> {
    const id = randomUUID();
    const key = `${ctx.organizationId}/${id}.${ext}`;
    await this.storage.put(key, bytes, type);
    const media = this.em.create(Media, {
      id,
      organization: this.em.getReference(Organization, ctx.organizationId),
      storageKey: key,
      url: `/api/media/${key}`,
      contentType: type,
      byteSize: bytes.length,
      originalName: withoutControlCharacters(originalName).slice(0, 255),
      createdAt: new Date(),
    });
    try {
      await this.em.persistAndFlush(media);
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
    return media;
  }

  /** The caller's images for these URLs, in the same order; any other URL is 404. */
  async requireByUrls(ctx: RequestContext, urls: string[]): Promise<Media[]> {
    const unique = [...new Set(urls)];
    const found = await this.em.find(Media, { url: { $in: unique }, organization: ctx.organizationId });
    const byUrl = new Map(found.map((m) => [m.url, m]));
    return urls.map((url) => {
      const media = byUrl.get(url);
      if (!media) throw notFound(UPLOAD_MESSAGES.imageNotFound);
      return media;
    });
  }

  /** Public read of a stored image (the course pages show them without signing in). */
  async open(key: string): Promise<{ media: Media; stream: Readable } | null> {
    const media = await this.em.findOne(Media, { storageKey: key });
    if (!media) return null;
    const stream = await this.storage.get(key);
    return stream ? { media, stream } : null;
  }
}
