import { Suspense, useState } from 'react';
import { DEFAULT_TIMEZONE, SCHEDULING_MESSAGES, SESSION_CANCEL_MESSAGES, STUDENT_DIALOGS } from '@studio/contracts';
import {
  Button,
  DrawerSection,
  DrawerShell,
  EditOutlined,
  Flex,
  QueryGuard,
  Tag,
  useDrawer,
  useQuery,
  useQueryClient,
  useRemoteEntry,
  type DrawerProps,
} from '@studio/ui';
import { CancellationSection } from './cancellation-section';
import { DeleteEventDialog } from './delete-event-dialog';
import { EditEventDialog } from './edit-event-dialog';
import { EnrollmentsGrid } from './enrollments-grid';
import { EventDetails } from './event-details';
import { EventTags } from './event-tags';
import { EventWaitlist } from './event-waitlist';
import { eventQueries, refreshEvent, type EnrollmentRow } from '../api/events';
import { GuestCountDialog } from './guest-count-dialog';
import { CancelBookingDialog } from './cancel-booking-dialog';
import { ModifyBookingDialog } from './modify-booking-dialog';
import { MoveStudentsDialog } from './move-students-dialog';

export interface EventDrawerData {
  eventId?: string;
  event_id?: string;
}

type Dialog =
  | { kind: 'edit' }
  | { kind: 'delete' }
  | { kind: 'add' }
  | { kind: 'guests'; row: EnrollmentRow }
  | { kind: 'remove'; row: EnrollmentRow }
  | { kind: 'cancel-booking'; row: EnrollmentRow }
  | { kind: 'modify-booking'; row: EnrollmentRow }
  | { kind: 'move'; row: EnrollmentRow | null };

/** Event (scheduled course) detail (spec 001 §2): Event Details, Enrollments, tags and the actions. */
export function EventDrawer({ data, close }: DrawerProps<EventDrawerData>) {
  const eventId = data.eventId ?? data.event_id ?? '';
  const drawers = useDrawer();
  const queryClient = useQueryClient();
  const query = useQuery({
    ...eventQueries.detail(eventId),
  });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const AddStudent = useRemoteEntry('students', STUDENT_DIALOGS.addStudent);
  const RemoveStudent = useRemoteEntry('students', STUDENT_DIALOGS.removeStudent);

  /** After a change made here (the hooks refresh what they changed): the dialog closes. */
  const done = () => setDialog(null);
  /**
   * After the students remote's Add or Remove student dialog changed the enrollments (it knows no
   * keys of this remote): the event, its grid and the sessions' seat counts read again.
   */
  const enrollmentsChanged = () => {
    done();
    void refreshEvent(queryClient, eventId);
  };

  // A failed reload keeps the event on screen; a failed first load shows the error with Retry.
  return (
    <QueryGuard query={query} title={SCHEDULING_MESSAGES.eventLoadFailed} keepDataOnError>
      {renderEvent}
    </QueryGuard>
  );

  function renderEvent(event: NonNullable<typeof query.data>) {
    const timezone = event.Location?.timezone?.timeZoneId || DEFAULT_TIMEZONE;
    // A session the studio cancelled (issue 23) stays, with its students listed as removed.
    const cancelled = event.status === 'cancelled';
    const studentName = (row: EnrollmentRow) =>
      `${row.Student?.first_name ?? ''} ${row.Student?.last_name ?? ''}`.trim();

    return (
      <DrawerShell
        title={
          cancelled ? (
            <Flex gap={8} align="center">
              <span>{event.Activity?.name ?? event.name}</span>
              <Tag color="red">{SESSION_CANCEL_MESSAGES.badge}</Tag>
            </Flex>
          ) : (
            (event.Activity?.name ?? event.name)
          )
        }
        extra={
          <Flex gap={8} wrap>
            {cancelled ? null : (
              <Button type="primary" onClick={() => setDialog({ kind: 'add' })} disabled={AddStudent === null}>
                Add student
              </Button>
            )}
            <Button onClick={() => drawers.open('edit_course', { activity_id: event.activity_id })}>
              Edit course
            </Button>
            {cancelled ? null : (
              <Button danger onClick={() => setDialog({ kind: 'delete' })}>
                Cancel course
              </Button>
            )}
          </Flex>
        }
      >
        <EventTags eventId={event.event_id} />
        <DrawerSection title="Event Details">
          <Flex justify="flex-end">
            <Button size="small" icon={<EditOutlined />} onClick={() => setDialog({ kind: 'edit' })}>
              Edit event
            </Button>
          </Flex>
          <EventDetails event={event} timezone={timezone} />
        </DrawerSection>
        {event.meeting_join_url ? (
          <DrawerSection title="Meeting">
            <Flex vertical gap={8}>
              <a href={event.meeting_join_url} target="_blank" rel="noreferrer noopener">
                Join the Zoom meeting
              </a>
              {event.meeting_summary ? (
                <div aria-label="Meeting summary" style={{ whiteSpace: 'pre-wrap' }}>
                  {event.meeting_summary}
                </div>
              ) : null}
            </Flex>
          </DrawerSection>
        ) : null}
        {cancelled ? (
          <DrawerSection title="Cancellation">
            <CancellationSection eventId={event.event_id} />
          </DrawerSection>
        ) : (
          <DrawerSection title="Enrollments">
            <Flex justify="flex-end">
              <Button size="small" onClick={() => setDialog({ kind: 'move', row: null })}>
                Move all students
              </Button>
            </Flex>
            <EnrollmentsGrid
              onCancelBooking={(row) => setDialog({ kind: 'cancel-booking', row })}
              onModifyBooking={(row) => setDialog({ kind: 'modify-booking', row })}
              onMove={(row) => setDialog({ kind: 'move', row })}
              eventId={event.event_id}
              timezone={timezone}
              onEditGuests={(row) => setDialog({ kind: 'guests', row })}
              onRemove={(row) => setDialog({ kind: 'remove', row })}
              onOpenStudent={(student_id) => drawers.open('student', { student_id })}
            />
          </DrawerSection>
        )}
        {cancelled ? null : (
          <DrawerSection title="Waitlist">
            <EventWaitlist eventId={event.event_id} timezone={timezone} />
          </DrawerSection>
        )}

        {dialog?.kind === 'edit' ? (
          <EditEventDialog event={event} onClose={() => setDialog(null)} onSaved={done} />
        ) : null}
        {dialog?.kind === 'delete' ? (
          <DeleteEventDialog event={event} onClose={() => setDialog(null)} onDeleted={close} onCancelled={done} />
        ) : null}
        {dialog?.kind === 'guests' ? (
          <GuestCountDialog
            eventId={eventId}
            enrollment={dialog.row}
            onClose={() => setDialog(null)}
            onSaved={done}
          />
        ) : null}
        {dialog?.kind === 'cancel-booking' ? (
          <CancelBookingDialog
            booking={{ kind: 'enrollment', id: dialog.row.enrollment_id }}
            eventId={eventId}
            studentName={studentName(dialog.row)}
            onClose={() => setDialog(null)}
            onDone={done}
          />
        ) : null}
        {dialog?.kind === 'modify-booking' ? (
          <ModifyBookingDialog eventId={eventId} enrollment={dialog.row} onClose={() => setDialog(null)} onDone={done} />
        ) : null}
        {dialog?.kind === 'move' ? (
          <MoveStudentsDialog
            eventId={eventId}
            activityId={event.activity_id}
            timezone={timezone}
            enrollmentIds={dialog.row ? [dialog.row.enrollment_id] : null}
            who={dialog.row ? studentName(dialog.row) : 'every student of this session'}
            onClose={() => setDialog(null)}
            onDone={done}
          />
        ) : null}
        {/* Add and remove student are mfe-students' dialogs, loaded through the shell (one owner). */}
        <Suspense fallback={null}>
          {dialog?.kind === 'add' && AddStudent ? (
            <AddStudent
              data={{ event_id: event.event_id, activity_id: event.activity_id, onDone: enrollmentsChanged }}
              close={() => setDialog(null)}
            />
          ) : null}
          {dialog?.kind === 'remove' && RemoveStudent ? (
            <RemoveStudent
              data={{
                enrollment_id: dialog.row.enrollment_id,
                student_name: studentName(dialog.row),
                onDone: enrollmentsChanged,
              }}
              close={() => setDialog(null)}
            />
          ) : null}
        </Suspense>
      </DrawerShell>
    );
  }
}
