import { lazyPage, type PageRegistry } from '@studio/ui';

/** The list, and the list with a student's drawer open: one page, kept mounted between the two. */
const StudentsPage = lazyPage(
  () => import(/* webpackChunkName: "page-students" */ './pages/students.page'),
  'StudentsPage',
);

/** Pages of this remote by route; label and menu place them in the admin's navigation (issue 20). */
export const pages: PageRegistry = {
  '/admin/students': { label: 'Students', menu: 30, component: StudentsPage },
  '/admin/students/:studentId': { component: StudentsPage },
};
