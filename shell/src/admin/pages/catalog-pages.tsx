import { lazy, Suspense, type ComponentType } from 'react';
import { LoadingSkeleton } from '@studio/ui';

/** Each catalog page is its own chunk, loaded when its route is visited. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page = lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
  return function LazyPage() {
    return (
      <Suspense fallback={<LoadingSkeleton />}>
        <Page />
      </Suspense>
    );
  };
}

export const CoursesPage = lazyPage(
  () => import(/* webpackChunkName: "page-courses" */ './courses/courses.page'),
  'CoursesPage',
);
export const CourseDetailPage = lazyPage(
  () => import(/* webpackChunkName: "page-course-detail" */ './courses/course-detail.page'),
  'CourseDetailPage',
);
export const LocationsPage = lazyPage(
  () => import(/* webpackChunkName: "page-locations" */ './settings/locations.page'),
  'LocationsPage',
);
export const InstructorsPage = lazyPage(
  () => import(/* webpackChunkName: "page-instructors" */ './settings/instructors.page'),
  'InstructorsPage',
);
export const WaiverNewPage = lazyPage(
  () => import(/* webpackChunkName: "page-waiver-new" */ './settings/waiver-new.page'),
  'WaiverNewPage',
);
