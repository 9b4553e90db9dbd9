import type { Readable } from 'node:stream';

/** Where uploaded files live: local disk by default, an S3-compatible bucket when configured. */
export interface MediaStorage {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** A stream of the stored bytes, or null when there is no such key. */
  get(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

export const MEDIA_STORAGE = Symbol('MEDIA_STORAGE');
