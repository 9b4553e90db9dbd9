import { useState } from 'react';
import { COURSE_PAGE_SIZE, type CourseSortField } from '@studio/contracts';
import {
  Button,
  QueryFailure,
  Table,
  Typography,
  courseQueries,
  keepPreviousData,
  useDateFormat,
  useDrawer,
  useOrganizationTimezone,
  useQuery,
  type CourseListQuery,
  type CourseSummary,
  type TableProps,
  PageFrame,
  Link,
  useListSearch,
  ListSearch,
  emptyListText,
  listPagination,
  thumbnailColumn,
} from '@studio/ui';
import { coursePrice } from './course-price';
import { ListedBadge } from './listed-badge';

const TYPE_LABELS = { scheduled: 'Scheduled', appointment: 'Appointment' } as const;
/** Table column key to the API's sortField. */
const SORTABLE: Record<string, CourseSortField> = { name: 'name', price: 'unit_price', capacity: 'capacity' };

interface CourseListParams {
  search: string;
  page: number;
  limit: number;
  sortField?: CourseSortField;
  sortOrder?: 'asc' | 'desc';
}

/** What the page asks the server: empty parts left out. */
function listQuery({ search, page, limit, sortField, sortOrder }: CourseListParams): CourseListQuery {
  return {
    page,
    limit,
    ...(search.trim() ? { search: search.trim() } : {}),
    ...(sortField ? { sortField } : {}),
    ...(sortOrder ? { sortOrder } : {}),
  };
}

/** /admin/courses: the organization's courses, searched, sorted and paged by the server, and the New Course drawer. */
export function CoursesPage() {
  const drawer = useDrawer();
  const timezone = useOrganizationTimezone();
  const dates = useDateFormat();
  const [query, setQuery] = useState<CourseListParams>({ search: '', page: 1, limit: COURSE_PAGE_SIZE });
  const search = useListSearch(setQuery);
  // The page's main data, one page at a time; the previous page stays while the next loads. A failure
  // shows an error with Retry, never "No courses yet".
  const list = useQuery({ ...courseQueries.list(listQuery(query)), placeholderData: keepPreviousData });
  const answer = list.data;

  // New Course's onClose: the course lists (this page's and the pickers') read again.

  const sortOrderOf = (key: string) =>
    query.sortField === SORTABLE[key]
      ? query.sortOrder === 'desc'
        ? ('descend' as const)
        : ('ascend' as const)
      : null;

  const onChange: TableProps<CourseSummary>['onChange'] = (pagination, _filters, sorter) => {
    const sort = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = sort?.order && sort.columnKey ? SORTABLE[String(sort.columnKey)] : undefined;
    const sortOrder = field ? (sort.order === 'descend' ? ('desc' as const) : ('asc' as const)) : undefined;
    const sortChanged = field !== query.sortField || sortOrder !== query.sortOrder;
    setQuery({ ...query, sortField: field, sortOrder, page: sortChanged ? 1 : (pagination.current ?? 1) });
  };

  return (
    <PageFrame
      title="Courses"
      actions={
        <>
          <Button onClick={() => drawer.open('share', { mode: 'course' })}>Share course</Button>
          <Button type="primary" onClick={() => drawer.open('course_builder', {})}>
            New course
          </Button>
        </>
      }
    >
      <ListSearch search={search} label="Search courses" placeholder="Search by name" />
      <QueryFailure query={list} title="Could not load the courses" />
      <Table<CourseSummary>
        rowKey="activity_id"
        loading={list.isFetching}
        dataSource={answer?.activities ?? []}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: emptyListText('course', query.search, list.isError) }}
        pagination={listPagination('course', {
          current: query.page,
          pageSize: query.limit,
          total: answer?.totalCount ?? 0,
        })}
        columns={[
          thumbnailColumn<CourseSummary>((c) => c.image),
          {
            key: 'name',
            title: 'Name',
            sorter: true,
            sortOrder: sortOrderOf('name'),
            render: (_, c) => <Link to={`/admin/courses/${c.activity_id}`}>{c.name}</Link>,
          },
          { key: 'type', title: 'Type', render: (_, c) => TYPE_LABELS[c.activity_type] },
          { key: 'listed', title: 'Status', render: (_, c) => <ListedBadge listed={c.listed} /> },
          {
            key: 'next',
            title: 'Next session',
            render: (_, c) =>
              c.next_session_at ? (
                dates.dateTime(c.next_session_at, timezone)
              ) : (
                <Typography.Text type="secondary">None</Typography.Text>
              ),
          },
          {
            key: 'capacity',
            title: 'Capacity',
            sorter: true,
            sortOrder: sortOrderOf('capacity'),
            render: (_, c) => c.capacity,
          },
          {
            key: 'price',
            title: 'Price',
            sorter: true,
            sortOrder: sortOrderOf('price'),
            render: (_, c) => coursePrice(c.price_type, c.unit_price),
          },
        ]}
      />
    </PageFrame>
  );
}
