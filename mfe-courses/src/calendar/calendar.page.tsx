import { Suspense, useMemo, useState } from 'react';
import {
  APPOINTMENT_UI_MESSAGES,
  CALENDAR_VIEWS,
  STUDENT_DIALOGS,
  formatTime,
  formatWallDate,
  formatTimeZone,
  zoneAbbreviation,
  type CalendarView,
} from '@studio/contracts';
import {
  Button,
  Flex,
  LoadingSkeleton,
  QueryGuard,
  Radio,
  Select,
  Typography,
  instructorQueries,
  keepPreviousData,
  locationQueries,
  useDrawer,
  useOrganizationTimezone,
  usePickerList,
  useQuery,
  useQueryClient,
  useRemoteEntry,
} from '@studio/ui';
import { appointmentQueries, refreshAppointments, type CalendarItem } from '../api/appointments';
import { AppointmentPanel, type PanelDialog } from './appointment-panel';
import { dayOf, shiftAnchor, todayIn, viewDays, viewRange } from './calendar-range';

const VIEW_LABELS: Record<CalendarView, string> = { week: 'Week', day: 'Day' };

/** How the two kinds look: sessions solid blue, appointments dashed purple (the legend says so). */
export const KIND_STYLE = {
  session: { background: '#e6f4ff', borderLeft: '4px solid #1677ff' },
  appointment: { background: '#f9f0ff', borderLeft: '4px dashed #722ed1' },
} as const;
const KIND_LABEL = { session: 'Session', appointment: 'Appointment' } as const;

function Legend() {
  return (
    <Flex gap={16} align="center" role="list" aria-label="Legend">
      {(['session', 'appointment'] as const).map((kind) => (
        <Flex key={kind} gap={6} align="center" role="listitem">
          <span aria-hidden style={{ display: 'inline-block', width: 16, height: 12, ...KIND_STYLE[kind] }} />
          <span>{KIND_LABEL[kind]}</span>
        </Flex>
      ))}
    </Flex>
  );
}

/**
 * /admin/calendar (issue 22): the organization's sessions and appointments together, a week or a
 * day at a time, filtered by instructor or location, in the organization's zone (named). A session
 * opens the event drawer; an appointment opens a panel with its student and order, Move and Cancel.
 */
export function CalendarPage() {
  const orgZone = useOrganizationTimezone();
  const drawer = useDrawer();
  const queryClient = useQueryClient();
  const [view, setView] = useState<CalendarView>('week');
  const [anchor, setAnchor] = useState(() => todayIn(orgZone));
  const [instructorId, setInstructorId] = useState<string | undefined>();
  const [locationId, setLocationId] = useState<string | undefined>();
  const [selected, setSelected] = useState<string | null>(null);
  const [dialog, setDialog] = useState<PanelDialog | null>(null);
  const MoveAppointment = useRemoteEntry('students', STUDENT_DIALOGS.moveAppointment);
  const RemoveStudent = useRemoteEntry('students', STUDENT_DIALOGS.removeStudent);
  const instructors = usePickerList(instructorQueries.list(), (a) => a.instructors, 'instructors');
  const locations = usePickerList(locationQueries.list(), (a) => a.locations, 'locations');

  const days = viewDays(view, anchor);
  const range = viewRange(view, anchor, orgZone);
  const calendar = useQuery({
    ...appointmentQueries.calendar({ ...range, instructor_id: instructorId, location_id: locationId }),
    placeholderData: keepPreviousData,
  });
  const zone = calendar.data?.time_zone ?? orgZone;
  const byDay = useMemo(() => {
    const map = new Map<string, CalendarItem[]>();
    for (const item of calendar.data?.items ?? []) {
      const key = dayOf(item.starts_at, zone);
      map.set(key, [...(map.get(key) ?? []), item]);
    }
    return map;
  }, [calendar.data, zone]);
  const today = todayIn(zone);

  const open = (item: CalendarItem) => {
    if (item.kind === 'session')
      drawer.open('event', { eventId: item.id, event_id: item.id, activity_id: item.activity_id });
    else setSelected(item.id);
  };

  /** After Move or Cancel: the dialog closes and the calendar, lists and free times read again. */
  const changed = (cancelled: boolean) => {
    setDialog(null);
    if (cancelled) setSelected(null);
    void refreshAppointments(queryClient);
  };

  const title =
    view === 'week' ? `${formatWallDate(days[0]!)} – ${formatWallDate(days[6]!)}` : formatWallDate(anchor);

  return (
    <section aria-label="Calendar">
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 12 }}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Calendar
        </Typography.Title>
        <Legend />
      </Flex>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }}>
        <Flex gap={8} align="center" wrap>
          <Button onClick={() => setAnchor(shiftAnchor(view, anchor, -1))} aria-label={`Previous ${view}`}>
            Previous
          </Button>
          <Button onClick={() => setAnchor(todayIn(zone))}>Today</Button>
          <Button onClick={() => setAnchor(shiftAnchor(view, anchor, 1))} aria-label={`Next ${view}`}>
            Next
          </Button>
          <Typography.Text strong aria-live="polite">
            {title}
          </Typography.Text>
        </Flex>
        <Flex gap={8} align="center" wrap>
          <Select<string>
            aria-label="Instructor"
            allowClear
            placeholder="All instructors"
            style={{ minWidth: 180 }}
            loading={instructors.loading}
            value={instructorId}
            onChange={(v) => setInstructorId(v ?? undefined)}
            options={instructors.items.map((i) => ({
              value: i.instructor_id,
              label: `${i.first_name} ${i.last_name}`.trim(),
            }))}
          />
          <Select<string>
            aria-label="Location"
            allowClear
            placeholder="All locations"
            style={{ minWidth: 180 }}
            loading={locations.loading}
            value={locationId}
            onChange={(v) => setLocationId(v ?? undefined)}
            options={locations.items.map((l) => ({ value: l.location_id, label: l.name || l.address }))}
          />
          <Radio.Group
            aria-label="View"
            optionType="button"
            value={view}
            onChange={(e) => setView(e.target.value as CalendarView)}
            options={CALENDAR_VIEWS.map((v) => ({ value: v, label: VIEW_LABELS[v] }))}
          />
        </Flex>
      </Flex>
      <Typography.Paragraph type="secondary">
        Times in the organization's time zone, {formatTimeZone(zone)} ({zoneAbbreviation(range.from, zone)}).
      </Typography.Paragraph>
      <QueryGuard
        query={calendar}
        title={APPOINTMENT_UI_MESSAGES.calendarLoadFailed}
        loading={<LoadingSkeleton rows={4} />}
        keepDataOnError
      >
        {() => (
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: `repeat(auto-fit, minmax(${view === 'week' ? 130 : 240}px, 1fr))`,
              gap: 8,
              opacity: calendar.isPlaceholderData ? 0.6 : 1,
            }}
          >
            {days.map((day) => {
              const items = byDay.get(day) ?? [];
              return (
                <section
                  key={day}
                  aria-label={formatWallDate(day)}
                  style={{
                    border: '1px solid #f0f0f0',
                    borderRadius: 6,
                    padding: 8,
                    minHeight: 120,
                    background: day === today ? '#fffbe6' : '#fff',
                  }}
                >
                  <Typography.Text strong>{formatWallDate(day)}</Typography.Text>
                  <Flex vertical gap={6} style={{ marginTop: 6 }}>
                    {items.length === 0 ? <Typography.Text type="secondary">Nothing</Typography.Text> : null}
                    {items.map((item) => {
                      // The page names its zone once, above the days.
                      const time = `${formatTime(item.starts_at, zone)} – ${formatTime(item.ends_at, zone)}`;
                      const label = `${KIND_LABEL[item.kind]}: ${item.title}, ${item.course_name}, ${time}`;
                      return (
                        <button
                          key={`${item.kind}-${item.id}`}
                          type="button"
                          aria-label={label}
                          onClick={() => open(item)}
                          style={{
                            // The button's own border off; the kind's left border says what it is.
                            borderTop: 'none',
                            borderRight: 'none',
                            borderBottom: 'none',
                            ...KIND_STYLE[item.kind],
                            textAlign: 'left',
                            borderRadius: 4,
                            padding: '4px 6px',
                            cursor: 'pointer',
                            font: 'inherit',
                          }}
                        >
                          <div style={{ fontSize: 12 }}>{time}</div>
                          <div style={{ fontWeight: 600 }}>{item.title}</div>
                          <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.65)' }}>
                            {item.kind === 'appointment'
                              ? `${item.course_name}${item.status === 'held' ? ' · held' : ''}`
                              : item.capacity !== null
                                ? `${item.seats_taken ?? 0}/${item.capacity} seats`
                                : null}
                          </div>
                          {item.instructor_name ? (
                            <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.65)' }}>
                              {item.instructor_name}
                            </div>
                          ) : null}
                        </button>
                      );
                    })}
                  </Flex>
                </section>
              );
            })}
          </div>
        )}
      </QueryGuard>
      {selected ? (
        <AppointmentPanel
          id={selected}
          onClose={() => setSelected(null)}
          onMove={(a) => setDialog({ kind: 'move', appointment: a })}
          onCancel={(a) => setDialog({ kind: 'cancel', appointment: a })}
          canMove={Boolean(MoveAppointment)}
          canCancel={Boolean(RemoveStudent)}
        />
      ) : null}
      <Suspense fallback={null}>
        {dialog?.kind === 'move' && MoveAppointment ? (
          <MoveAppointment
            data={{
              appointment: {
                id: dialog.appointment.id,
                activity_id: dialog.appointment.activity_id,
                starts_at: dialog.appointment.starts_at,
                time_zone: dialog.appointment.time_zone,
                student_name: `${dialog.appointment.student.first_name} ${dialog.appointment.student.last_name}`,
              },
              onDone: () => changed(false),
            }}
            close={() => setDialog(null)}
          />
        ) : null}
        {dialog?.kind === 'cancel' && RemoveStudent ? (
          <RemoveStudent
            data={{
              appointment: { id: dialog.appointment.id },
              student_name: `${dialog.appointment.student.first_name} ${dialog.appointment.student.last_name}`,
              onDone: () => changed(true),
            }}
            close={() => setDialog(null)}
          />
        ) : null}
      </Suspense>
    </section>
  );
}
