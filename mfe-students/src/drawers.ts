import { lazy } from 'react';
import type { DrawerRegistry } from '@studio/ui';

/** Drawers of this remote by type name; the first one is what the bundle budget measures. */
export const drawers: DrawerRegistry = {
  student: lazy(() =>
    import(/* webpackChunkName: "drawer-student" */ './student/student.drawer').then((m) => ({
      default: m.StudentDrawer,
    })),
  ),
};
