import { lazy } from 'react';
import { STUDENT_DIALOGS } from '@studio/contracts';
import type { DrawerRegistry } from '@studio/ui';

/** Drawers of this remote by type name; the first one is what the bundle budget measures. */
export const drawers: DrawerRegistry = {
  student: lazy(() =>
    import(/* webpackChunkName: "drawer-student" */ './student/student.drawer').then((m) => ({
      default: m.StudentDrawer,
    })),
  ),
  // Dialogs other remotes load (not drawer types, so the drawer host never opens them as drawers);
  // chunks named drawer-* so the bundle budget counts them as lazy, like the drawers.
  [STUDENT_DIALOGS.addStudent]: lazy(() =>
    import(/* webpackChunkName: "drawer-add_student" */ './add-student/add-student.dialog').then((m) => ({
      default: m.AddStudentDialog,
    })),
  ),
  [STUDENT_DIALOGS.removeStudent]: lazy(() =>
    import(/* webpackChunkName: "drawer-remove_student" */ './add-student/remove-student.dialog').then(
      (m) => ({
        default: m.RemoveStudentDialog,
      }),
    ),
  ),
  [STUDENT_DIALOGS.moveAppointment]: lazy(() =>
    import(/* webpackChunkName: "drawer-move_appointment" */ './add-student/move-appointment.dialog').then(
      (m) => ({
        default: m.MoveAppointmentDialog,
      }),
    ),
  ),
};
