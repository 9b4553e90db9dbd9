import type { components, paths } from '@studio/contracts/src/generated/api';
import { answer, api } from './typed-client';

export type UploadedImage = components['schemas']['UploadOutDto_Output'];
type UploadBody = NonNullable<
  paths['/api/admin/upload']['post']['requestBody']
>['content']['multipart/form-data'];

/**
 * POST /api/admin/upload as multipart (field `file`) with the `token` header (spec 000 §6), through
 * the typed client: the generated type names the binary field a string, the browser sends the File.
 */
export function uploadImage(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', file);
  return answer(api.POST('/api/admin/upload', { body: form as unknown as UploadBody }));
}
