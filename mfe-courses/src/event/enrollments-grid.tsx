import { useEffect, useState } from 'react';
import {
  ATTENDANCE_LABELS,
  ATTENDANCE_MESSAGES,
  ORDER_STATUS_LABELS,
  WAIVER_STATUS_LABELS,
  formatCents,
} from '@studio/contracts';
import {
  App,
  Button,
  DownloadOutlined,
  Flex,
  Input,
  Space,
  Table,
  Tag,
  Typography,
  serverMessage,
  useDateFormat,
  type TableProps,
} from '@studio/ui';
import { AttendanceCell } from '../attendance/attendance-cell';
import { exportEnrollments, useCheckIn, useEnrollmentPage, type EnrollmentRow, type HeldSeat } from '../api/events';
import {
  INITIAL_ENROLLMENT_QUERY,
  type EnrollmentFilterColumn,
  type EnrollmentQuery,
  type EnrollmentSortField,
} from './enrollment-query';

interface EnrollmentsGridProps {
  eventId: string;
  timezone: string;
  /** Bumped by the drawer after an add, a remove or a guest change so the page reloads. */
  onEditGuests: (row: EnrollmentRow) => void;
  onRemove: (row: EnrollmentRow) => void;
  /** Cancel booking, Modify booking and Move student (issue 23); absent: not offered. */
  onCancelBooking?: (row: EnrollmentRow) => void;
  onModifyBooking?: (row: EnrollmentRow) => void;
  onMove?: (row: EnrollmentRow) => void;
  /** A click on a student's name opens the student drawer. */
  onOpenStudent: (studentId: string) => void;
}

const TEXT_FILTERS: EnrollmentFilterColumn[] = ['first_name', 'last_name', 'email', 'phone', 'guestCount'];

/** A text box in a column's filter menu; the server does the filtering. */
function textFilter(
  label: string,
): NonNullable<TableProps<EnrollmentRow>['columns']>[number]['filterDropdown'] {
  function TextFilterDropdown({
    selectedKeys,
    setSelectedKeys,
    confirm,
    clearFilters,
  }: Parameters<
    Extract<
      NonNullable<TableProps<EnrollmentRow>['columns']>[number]['filterDropdown'],
      (...a: never[]) => unknown
    >
  >[0]) {
    return (
      <Space style={{ padding: 8 }}>
        <Input
          aria-label={`Filter ${label}`}
          value={String(selectedKeys[0] ?? '')}
          onChange={(e) => setSelectedKeys(e.target.value ? [e.target.value] : [])}
          onPressEnter={() => confirm()}
        />
        <Button type="primary" size="small" onClick={() => confirm()}>
          Filter
        </Button>
        <Button
          size="small"
          onClick={() => {
            clearFilters?.();
            confirm();
          }}
        >
          Reset
        </Button>
      </Space>
    );
  }
  return (props) => <TextFilterDropdown {...props} />;
}

/** Enrollments of a session: server-side paging (20), search, sort and column filters, export. */
export function EnrollmentsGrid({
  eventId,
  timezone,
  onEditGuests,
  onRemove,
  onCancelBooking,
  onModifyBooking,
  onMove,
  onOpenStudent,
}: EnrollmentsGridProps) {
  const [query, setQuery] = useState<EnrollmentQuery>(INITIAL_ENROLLMENT_QUERY);
  const [searchText, setSearchText] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [exporting, setExporting] = useState(false);
  const dates = useDateFormat();
  const { message } = App.useApp();
  const checkIn = useCheckIn(eventId);
  /** The enrollment whose check-in is being changed (its button spins; the others stay usable). */
  const [checking, setChecking] = useState<string | null>(null);

  const list = useEnrollmentPage(eventId, query);
  const loading = list.isFetching;
  // Fetch failures of lists are only logged and the list falls back to empty (spec 001 §8).
  useEffect(() => {
    if (list.error) console.error('Could not load enrollments', list.error);
  }, [list.error]);
  const page = list.isError
    ? { rows: [] as EnrollmentRow[], total: 0, held: [] as HeldSeat[] }
    : list.data
      ? { rows: list.data.enrollments, total: list.data.totalCount, held: list.data.heldSeats }
      : null;
  const heldCount = (page?.held ?? []).reduce((sum, hold) => sum + hold.seats, 0);

  const runExport = async () => {
    setExporting(true);
    try {
      await exportEnrollments(eventId, selected);
    } catch (error) {
      // Export failures are only logged (spec 001 §8).
      console.error('Export failed', error);
    } finally {
      setExporting(false);
    }
  };

  const setCheckIn = async (row: EnrollmentRow, checkedIn: boolean) => {
    setChecking(row.enrollment_id);
    try {
      await checkIn.mutateAsync({ enrollmentId: row.enrollment_id, checkedIn });
      message.success(checkedIn ? ATTENDANCE_MESSAGES.checkedIn : ATTENDANCE_MESSAGES.checkInUndone);
    } catch (error) {
      message.error(serverMessage(error, ATTENDANCE_MESSAGES.checkInFailed));
    } finally {
      setChecking(null);
    }
  };

  const sortOrderOf = (field: EnrollmentSortField) =>
    query.sortField === field
      ? query.sortOrder === 'asc'
        ? ('ascend' as const)
        : ('descend' as const)
      : null;
  const filterOf = (column: EnrollmentFilterColumn) => (query.filter[column] ? [query.filter[column]] : null);

  const columns: TableProps<EnrollmentRow>['columns'] = [
    {
      key: 'first_name',
      title: 'First name',
      render: (_, row) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpenStudent(row.student_id)}>
          {row.Student?.first_name}
        </Button>
      ),
      sorter: true,
      sortOrder: sortOrderOf('first_name'),
      filterDropdown: textFilter('First name'),
      filteredValue: filterOf('first_name'),
    },
    {
      key: 'last_name',
      title: 'Last name',
      render: (_, row) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpenStudent(row.student_id)}>
          {row.Student?.last_name}
        </Button>
      ),
      sorter: true,
      sortOrder: sortOrderOf('last_name'),
      filterDropdown: textFilter('Last name'),
      filteredValue: filterOf('last_name'),
    },
    {
      key: 'email',
      title: 'Email',
      render: (_, row) => row.Student?.email,
      sorter: true,
      sortOrder: sortOrderOf('email'),
      filterDropdown: textFilter('Email'),
      filteredValue: filterOf('email'),
    },
    {
      key: 'phone',
      title: 'Phone',
      render: (_, row) => row.Student?.phone ?? '',
      filterDropdown: textFilter('Phone'),
      filteredValue: filterOf('phone'),
    },
    {
      key: 'guestCount',
      title: 'Guests',
      render: (_, row) => (
        <Button
          type="link"
          size="small"
          aria-label={`Edit guests of ${row.Student?.first_name} ${row.Student?.last_name}`}
          onClick={() => onEditGuests(row)}
        >
          {row.guestCount}
        </Button>
      ),
      sorter: true,
      sortOrder: sortOrderOf('guestCount'),
      filterDropdown: textFilter('Guests'),
      filteredValue: filterOf('guestCount'),
    },
    {
      key: 'waiverStatus',
      title: 'Waiver',
      render: (_, row) => WAIVER_STATUS_LABELS[row.waiverStatus] ?? row.waiverStatus,
      sorter: true,
      sortOrder: sortOrderOf('waiverStatus'),
      filters: Object.entries(WAIVER_STATUS_LABELS).map(([value, text]) => ({ value, text })),
      filterMultiple: false,
      filteredValue: filterOf('waiverStatus'),
    },
    {
      key: 'order',
      title: 'Order',
      // A seat booked on a membership or pack (issue 24) names it after its $0 order; a refunded
      // order says so beside it (the student keeps the seat until removed).
      render: (_, row) =>
        row.Order ? (
          <Space size={4} wrap>
            <span>
              {`#${row.Order.order_number ?? ''} · ${formatCents(row.Order.totalPrice)}${row.paid_with ? ` · ${row.paid_with}` : ''}`}
            </span>
            {row.Order.status === 'refunded' || row.Order.status === 'partial_refund' ? (
              <Tag color={ORDER_STATUS_LABELS[row.Order.status].color}>
                {row.Order.status === 'refunded'
                  ? ORDER_STATUS_LABELS.refunded.label
                  : `Refunded ${formatCents(row.Order.refundedPrice)}`}
              </Tag>
            ) : null}
          </Space>
        ) : (
          ''
        ),
    },
    {
      key: 'created_at',
      title: 'Enrolled',
      render: (_, row) => dates.dateTime(row.created_at, timezone),
      sorter: true,
      sortOrder: sortOrderOf('created_at'),
    },
    {
      // One click checks in, Undo takes it back; after the session a student not checked in shows
      // No-show (attendanceOf, answered by the API), and can still be checked in late.
      key: 'checked_in_at',
      title: 'Attendance',
      render: (_, row) => (
        <AttendanceCell
          attendance={row.attendance}
          checkedInAt={row.checked_in_at}
          zone={timezone}
          name={`${row.Student?.first_name} ${row.Student?.last_name}`}
          busy={checking === row.enrollment_id}
          onChange={(checkedIn) => void setCheckIn(row, checkedIn)}
        />
      ),
      sorter: true,
      sortOrder: sortOrderOf('checked_in_at'),
      filters: Object.entries(ATTENDANCE_LABELS).map(([value, text]) => ({ value, text })),
      filterMultiple: false,
      filteredValue: filterOf('attendance'),
    },
    {
      // Fixed to the right edge: however narrow the drawer, the grid scrolls under it and Remove stays in view.
      key: 'actions',
      title: '',
      fixed: 'right',
      width: onCancelBooking ? 300 : 88,
      render: (_, row) => {
        const name = `${row.Student?.first_name} ${row.Student?.last_name}`;
        return (
          <Space size={0}>
            {onCancelBooking ? (
              <Button type="link" size="small" onClick={() => onCancelBooking(row)} aria-label={`Cancel booking of ${name}`}>
                Cancel booking
              </Button>
            ) : null}
            {onModifyBooking ? (
              <Button type="link" size="small" onClick={() => onModifyBooking(row)} aria-label={`Modify booking of ${name}`}>
                Modify
              </Button>
            ) : null}
            {onMove ? (
              <Button type="link" size="small" onClick={() => onMove(row)} aria-label={`Move ${name}`}>
                Move
              </Button>
            ) : null}
            <Button type="link" danger size="small" onClick={() => onRemove(row)} aria-label={`Remove ${name}`}>
              Remove
            </Button>
          </Space>
        );
      },
    },
  ];

  const onChange: TableProps<EnrollmentRow>['onChange'] = (pagination, filters, sorter) => {
    const sort = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = (sort?.order ? sort.columnKey : undefined) as EnrollmentSortField | undefined;
    const filter: EnrollmentQuery['filter'] = {};
    for (const column of [...TEXT_FILTERS, 'waiverStatus', 'attendance'] as EnrollmentFilterColumn[]) {
      // The Attendance column's key is its sort field (checked_in_at); its filter is attendance.
      const value = filters[column === 'attendance' ? 'checked_in_at' : column]?.[0];
      if (value !== undefined && value !== null && String(value) !== '') filter[column] = String(value);
    }
    const filterChanged = JSON.stringify(filter) !== JSON.stringify(query.filter);
    setQuery({
      ...query,
      page: filterChanged ? 1 : (pagination.current ?? 1),
      sortField: field ?? INITIAL_ENROLLMENT_QUERY.sortField,
      sortOrder: field && sort.order === 'descend' ? 'desc' : 'asc',
      filter,
    });
  };

  return (
    <Flex vertical gap={12}>
      {page?.held.length ? <HeldSeats holds={page.held} timezone={timezone} /> : null}
      <Flex gap={8} justify="space-between" wrap>
        <Input.Search
          aria-label="Search enrollments"
          placeholder="Search name or email"
          allowClear
          style={{ maxWidth: 320 }}
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onSearch={(value) => setQuery({ ...query, page: 1, search: value })}
        />
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void runExport()}>
          {selected.length ? `Export selected (${selected.length})` : 'Export all'}
        </Button>
      </Flex>
      <Table<EnrollmentRow>
        rowKey="enrollment_id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={page?.rows ?? []}
        onChange={onChange}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: page?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) =>
            heldCount ? `${total} enrolled · ${heldCount} ${heldCount === 1 ? 'seat' : 'seats'} held` : `${total} enrolled`,
        }}
        // The grid scrolls inside its own box (not the drawer) and keeps its columns readable.
        scroll={{ x: 'max-content' }}
        style={{ maxWidth: '100%' }}
      />
    </Flex>
  );
}

const HOLD_KINDS: Record<HeldSeat['kind'], string> = {
  payment_link: 'Payment link',
  waitlist_offer: 'Waitlist offer',
  checkout: 'Store checkout',
};

/**
 * Seats held but not enrolled yet (issue 25: they counted, 8/8, while nobody appeared): who for,
 * why (an unpaid payment link, an unclaimed waitlist offer, a store checkout being paid) and until when.
 */
function HeldSeats({ holds, timezone }: { holds: HeldSeat[]; timezone: string }) {
  const dates = useDateFormat();
  return (
    <section aria-label="Held seats">
      <Typography.Text strong>Held, not enrolled yet</Typography.Text>
      <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
        {holds.map((hold) => (
          <li key={hold.hold_id}>
            {[
              hold.name || hold.email,
              hold.name && hold.email ? `(${hold.email})` : '',
            ]
              .filter(Boolean)
              .join(' ')}
            {' · '}
            {hold.seats} {hold.seats === 1 ? 'seat' : 'seats'}
            {' · '}
            {HOLD_KINDS[hold.kind]}
            {hold.Order ? ` #${hold.Order.order_number ?? ''} · ${formatCents(hold.Order.totalPrice)}` : ''}
            {' · '}
            {`held until ${dates.dateTime(hold.expires_at, timezone)}`}
          </li>
        ))}
      </ul>
    </section>
  );
}
