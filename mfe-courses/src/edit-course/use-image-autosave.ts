import { useCallback } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { COURSE_MESSAGES, courseImagesUpdateSchema, type CourseUpdatePayload } from '@studio/contracts';
import { App } from '@studio/ui';
import { useSaveCourseImages } from '../api/courses';
import type { EditCourseValues } from './edit-course-values';

/**
 * Edit mode saves image additions, removals and moves at once with an images-only PUT
 * (spec 001 §7). A list the contract refuses (no image left) stays in the form unsaved and shows
 * the rule's message; a failed save puts the previous list back.
 */
export function useImageAutosave(
  activityId: string,
  form: UseFormReturn<EditCourseValues, unknown, CourseUpdatePayload>,
) {
  const { message } = App.useApp();
  const { getValues, setValue, setError, clearErrors } = form;
  const { mutateAsync: saveImages } = useSaveCourseImages(activityId);
  return useCallback(
    async (images: string[]) => {
      const previous = getValues('images');
      const added = images.length > previous.length;
      setValue('images', images);
      const checked = courseImagesUpdateSchema.safeParse({ images });
      if (!checked.success) {
        setError('images', { type: 'validate', message: checked.error.issues[0]?.message });
        return;
      }
      clearErrors('images');
      try {
        await saveImages(checked.data);
      } catch (error) {
        console.error('Saving the course images failed', error);
        setValue('images', previous);
        // An upload failure shows no message (spec 000 §8); a failed removal or move does.
        if (!added) message.error(COURSE_MESSAGES.updateFailed);
      }
    },
    [saveImages, getValues, setValue, setError, clearErrors, message],
  );
}
