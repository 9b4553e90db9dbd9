import { useEffect, useRef, useState } from 'react';
import {
  ORDER_PAGE_SIZE,
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  WORKBENCH_SOURCE,
  orderSourceLabel,
  formatCents,
  type OrderSortField,
  type OrderStatus,
} from '@studio/contracts';
import {
  Flex,
  QueryFailure,
  Select,
  Table,
  Tag,
  keepPreviousData,
  useDateFormat,
  useDrawer,
  useQuery,
  PageFrame,
  useListSearch,
  ListSearch,
  listPagination,
} from '@studio/ui';
import { orderListQuery, type OrderListQueryParams, type OrderSummary } from './orders.api';

/** Sources the filter offers: the studio's own, and the ticketing service's synced orders. */
const SOURCE_OPTIONS = [
  { value: WORKBENCH_SOURCE, label: orderSourceLabel(WORKBENCH_SOURCE) },
  { value: 'eventbrite', label: 'Eventbrite' },
];

interface OrderListParams {
  search: string;
  status?: OrderStatus;
  source?: string;
  page: number;
  /** Unset: the server's default, newest first. */
  sort?: { field: OrderSortField; order: 'asc' | 'desc' };
}

function listQuery(
  { search, status, source, page, sort }: OrderListParams,
  cursor?: string,
): OrderListQueryParams {
  return {
    page,
    ...(cursor ? { cursor } : {}),
    limit: ORDER_PAGE_SIZE,
    ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}),
    ...(search ? { search } : {}),
    ...(status ? { status } : {}),
    ...(source ? { source } : {}),
  };
}

/** /admin/orders: the organization's orders, searched, filtered and paged by the server; a row opens the order drawer. */
export function OrdersPage() {
  const drawer = useDrawer();
  const dates = useDateFormat();
  const [query, setQuery] = useState<OrderListParams>({ search: '', page: 1 });
  const search = useListSearch(setQuery);
  // Keyset paging: the page after one already shown starts after its last row (its `next_cursor`),
  // so walking deep into a million orders never makes the database skip rows. A page reached
  // otherwise (a jump) is asked for by number. Cursor pages answer no count: the first one stands.
  const filterKey = JSON.stringify([query.search, query.status, query.source, query.sort]);
  const cursors = useRef(new Map<string, string>());
  const totals = useRef(new Map<string, number>());
  const cursor = query.page > 1 ? cursors.current.get(`${filterKey}|${query.page}`) : undefined;
  const list = useQuery({
    ...orderListQuery(listQuery(query, cursor)),
    placeholderData: keepPreviousData,
  });
  const answer = list.data;
  useEffect(() => {
    if (!answer || list.isPlaceholderData) return;
    if (answer.next_cursor) cursors.current.set(`${filterKey}|${answer.currentPage + 1}`, answer.next_cursor);
    if (answer.totalCount !== null) totals.current.set(filterKey, answer.totalCount);
  }, [answer, list.isPlaceholderData, filterKey]);
  const filtered = Boolean(query.search || query.status || query.source);

  const sortOrder = (field: OrderSortField) =>
    query.sort?.field === field
      ? query.sort.order === 'asc'
        ? ('ascend' as const)
        : ('descend' as const)
      : null;
  const openOrder = (order_id: string) => drawer.open('order', { order_id });

  return (
    <PageFrame title="Orders">
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <ListSearch
          search={search}
          label="Search orders"
          placeholder="Search by order number, name or email"
          style={{ maxWidth: 360 }}
        />
        <Select<OrderStatus>
          aria-label="Filter by status"
          placeholder="All statuses"
          allowClear
          style={{ minWidth: 180 }}
          value={query.status}
          onChange={(status) => setQuery((q) => ({ ...q, status, page: 1 }))}
          options={ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s].label }))}
        />
        <Select<string>
          aria-label="Filter by source"
          placeholder="All sources"
          allowClear
          style={{ minWidth: 160 }}
          value={query.source}
          onChange={(source) => setQuery((q) => ({ ...q, source, page: 1 }))}
          options={SOURCE_OPTIONS}
        />
      </Flex>
      <QueryFailure query={list} title="Could not load the orders" />
      <Table<OrderSummary>
        rowKey="order_id"
        loading={list.isFetching}
        dataSource={answer?.orders ?? []}
        onChange={(pagination, _filters, sorter, { action }) => {
          if (action === 'sort') {
            const one = Array.isArray(sorter) ? sorter[0] : sorter;
            const field = one?.columnKey as OrderSortField | undefined;
            setQuery((q) => ({
              ...q,
              page: 1,
              sort:
                field && one?.order ? { field, order: one.order === 'ascend' ? 'asc' : 'desc' } : undefined,
            }));
          } else setQuery((q) => ({ ...q, page: pagination.current ?? 1 }));
        }}
        onRow={(o) => ({ onClick: () => openOrder(o.order_id), style: { cursor: 'pointer' } })}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: list.isError ? ' ' : filtered ? 'No orders match these filters' : 'No orders yet',
        }}
        pagination={listPagination('order', {
          current: query.page,
          pageSize: ORDER_PAGE_SIZE,
          total: answer?.totalCount ?? totals.current.get(filterKey) ?? 0,
        })}
        columns={[
          {
            key: 'order_number',
            title: 'Order',
            sorter: true,
            sortOrder: sortOrder('order_number'),
            render: (_, o) => `#${o.order_number}`,
          },
          {
            key: 'created_at',
            title: 'Date',
            sorter: true,
            sortOrder: sortOrder('created_at'),
            render: (_, o) => dates.dateTime(o.created_at),
          },
          {
            key: 'student',
            title: 'Student',
            render: (_, o) => (
              <Flex vertical>
                <span>{`${o.Student.first_name} ${o.Student.last_name}`}</span>
                <span style={{ color: 'rgba(0, 0, 0, 0.45)', fontSize: 12 }}>{o.Student.email}</span>
              </Flex>
            ),
          },
          {
            key: 'total',
            title: 'Total',
            align: 'right',
            sorter: true,
            sortOrder: sortOrder('total'),
            render: (_, o) => formatCents(o.total),
          },
          {
            key: 'status',
            title: 'Status',
            render: (_, o) => (
              <Tag color={ORDER_STATUS_LABELS[o.status].color}>{ORDER_STATUS_LABELS[o.status].label}</Tag>
            ),
          },
          { key: 'source', title: 'Source', render: (_, o) => orderSourceLabel(o.source) },
        ]}
      />
    </PageFrame>
  );
}
