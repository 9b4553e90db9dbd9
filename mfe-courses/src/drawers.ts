import { lazy } from 'react';
import type { DrawerRegistry } from '@studio/ui';

/** Drawers of this remote by type name; the first one is what the bundle budget measures. */
export const drawers: DrawerRegistry = {
  share: lazy(() =>
    import(/* webpackChunkName: "drawer-share" */ './share/share.drawer').then((m) => ({
      default: m.ShareDrawer,
    })),
  ),
  schedule_course: lazy(() =>
    import(/* webpackChunkName: "drawer-schedule_course" */ './schedule/schedule-course.drawer').then(
      (m) => ({
        default: m.ScheduleCourseDrawer,
      }),
    ),
  ),
  course_builder: lazy(() =>
    import(/* webpackChunkName: "drawer-course_builder" */ './course-builder/course-builder.drawer').then(
      (m) => ({
        default: m.CourseBuilderDrawer,
      }),
    ),
  ),
  edit_course: lazy(() =>
    import(/* webpackChunkName: "drawer-edit_course" */ './edit-course/edit-course.drawer').then((m) => ({
      default: m.EditCourseDrawer,
    })),
  ),
  event: lazy(() =>
    import(/* webpackChunkName: "drawer-event" */ './event/event.drawer').then((m) => ({
      default: m.EventDrawer,
    })),
  ),
};
