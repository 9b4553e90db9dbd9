import type { CourseCreatePayload, CourseImagesUpdateInput, CourseUpdatePayload } from '@studio/contracts';
import { answer, api, type CourseDetail, type CreatedCourse, type paths } from '@studio/ui';

type CreateBody = paths['/api/admin/activities']['post']['requestBody']['content']['application/json'];

const byId = (activity_id: string) => ({ params: { path: { activity_id } } });

export function createCourse(payload: CourseCreatePayload): Promise<CreatedCourse> {
  // The schema checks the start time against the 15-minute grid with a refine; the document lists the grid.
  const body = {
    ...payload,
    default_start_time: payload.default_start_time as CreateBody['default_start_time'],
  };
  return answer(api.POST('/api/admin/activities', { body }));
}

export async function updateCourse(id: string, body: CourseUpdatePayload): Promise<CourseDetail> {
  return await answer(api.PUT('/api/admin/activities/{activity_id}', { ...byId(id), body }));
}

/** The images-only save of edit mode, sent at once on each upload, delete or move (spec 001 §7). */
export async function saveCourseImages(id: string, body: CourseImagesUpdateInput): Promise<CourseDetail> {
  return await answer(api.PUT('/api/admin/activities/{activity_id}', { ...byId(id), body }));
}

/** The chat alert for a new course (spec 001 §7); it must never fail the creation itself. */
export async function alertNewCourse(name: string): Promise<void> {
  try {
    await answer(
      api.POST('/api/slack-alert-new-course', { body: { message: `New course created: ${name}` } }),
    );
  } catch (error) {
    console.error('The new-course chat alert failed', error);
  }
}
