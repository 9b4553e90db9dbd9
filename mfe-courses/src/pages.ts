import { lazyPage, type PageRegistry } from '@studio/ui';

/** Pages of this remote by route; label and menu place them in the admin's navigation (issue 20). */
export const pages: PageRegistry = {
  '/admin/courses': {
    label: 'Courses',
    menu: 10,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-courses" */ './pages/courses.page'),
      'CoursesPage',
    ),
  },
  '/admin/courses/:activityId': {
    component: lazyPage(
      () => import(/* webpackChunkName: "page-course-detail" */ './pages/course-detail.page'),
      'CourseDetailPage',
    ),
  },
  '/admin/calendar': {
    label: 'Calendar',
    menu: 15,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-calendar" */ './calendar/calendar.page'),
      'CalendarPage',
    ),
  },
  '/admin/settings/locations': {
    label: 'Locations',
    menu: 90,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-locations" */ './pages/settings/locations.page'),
      'LocationsPage',
    ),
  },
  '/admin/settings/instructors': {
    label: 'Instructors',
    menu: 100,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-instructors" */ './pages/settings/instructors.page'),
      'InstructorsPage',
    ),
  },
  '/admin/settings/waivers': {
    label: 'Waivers',
    menu: 110,
    component: lazyPage(
      () => import(/* webpackChunkName: "page-waivers" */ './pages/settings/waivers.page'),
      'WaiversPage',
    ),
  },
  '/admin/waivers/new': {
    component: lazyPage(
      () => import(/* webpackChunkName: "page-waiver-new" */ './pages/settings/waiver-new.page'),
      'WaiverNewPage',
    ),
  },
};
