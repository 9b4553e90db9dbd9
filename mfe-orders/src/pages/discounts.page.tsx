import { useState } from 'react';
import { DISCOUNT_PAGE_SIZE, formatCents } from '@studio/contracts';
import {
  Button,
  PlusOutlined,
  QueryFailure,
  Table,
  Tag,
  keepPreviousData,
  useDateFormat,
  useDrawer,
  useQuery,
  PageFrame,
  useListSearch,
  ListSearch,
  emptyListText,
  listPagination,
} from '@studio/ui';
import { discountListQuery, type PromoCode } from './discounts.api';

const STATUS_TAG = {
  scheduled: { color: 'blue', label: 'Scheduled' },
  active: { color: 'green', label: 'Active' },
  expired: { color: 'default', label: 'Expired' },
} as const;

/** "$15.00 off each item", "10% off the order". */
export function discountValueText(d: Pick<PromoCode, 'type' | 'value' | 'apply_logic'>): string {
  const amount = d.type === 'dollar' ? formatCents(d.value) : `${d.value}%`;
  return `${amount} off ${d.apply_logic === 'each' ? 'each item' : 'the order'}`;
}

/**
 * /admin/discounts: the organization's discount codes, searched and paged on the server, with their
 * value, window (in the organization's zone), status and times used. A row opens Edit Discount; a
 * save in the drawer refreshes the list (its query keys are invalidated).
 */
export function DiscountsPage() {
  const drawer = useDrawer();
  const dates = useDateFormat();
  const [query, setQuery] = useState({ search: '', page: 1, limit: DISCOUNT_PAGE_SIZE });
  const search = useListSearch(setQuery);
  const list = useQuery({
    ...discountListQuery({
      page: query.page,
      limit: query.limit,
      ...(query.search ? { search: query.search } : {}),
    }),
    placeholderData: keepPreviousData,
  });

  const openDiscount = (row: PromoCode) => drawer.open('discount', { id: row.id });
  const windowText = (d: PromoCode) => {
    const start = d.start_date ? dates.dateTime(d.start_date) : null;
    const end = d.expiration_date ? dates.dateTime(d.expiration_date) : null;
    if (start && end) return `${start} – ${end}`;
    if (start) return `From ${start}`;
    if (end) return `Until ${end}`;
    return 'No end date';
  };

  return (
    <PageFrame
      title="Discounts"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => drawer.open('discount', {})}>
          New discount
        </Button>
      }
    >
      <ListSearch search={search} label="Search discounts" placeholder="Search code or label" />
      {/* The page's main data: a failure shows an error with Retry, never "No discounts yet". */}
      {list.isError ? (
        <QueryFailure query={list} title="Could not load the discounts" />
      ) : (
        <Table<PromoCode>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.promo_codes ?? []}
          locale={{ emptyText: emptyListText('discount', query.search, list.isError) }}
          scroll={{ x: 'max-content' }}
          onRow={(row) => ({
            onClick: () => openDiscount(row),
            onKeyDown: (event) => {
              if (event.key === 'Enter') openDiscount(row);
            },
            tabIndex: 0,
            style: { cursor: 'pointer' },
            'aria-label': `Open ${row.code}`,
          })}
          pagination={listPagination(
            'discount',
            { current: query.page, pageSize: query.limit, total: list.data?.totalCount ?? 0 },
            (page) => setQuery((q) => ({ ...q, page })),
          )}
          columns={[
            {
              key: 'code',
              title: 'Code',
              render: (_, d) => (
                <>
                  <strong>{d.code}</strong>
                  <div style={{ color: 'rgba(0,0,0,0.55)' }}>{d.label}</div>
                </>
              ),
            },
            { key: 'value', title: 'Value', render: (_, d) => discountValueText(d) },
            { key: 'window', title: 'Window', render: (_, d) => windowText(d) },
            {
              key: 'status',
              title: 'Status',
              render: (_, d) => <Tag color={STATUS_TAG[d.status].color}>{STATUS_TAG[d.status].label}</Tag>,
            },
            { key: 'times_used', title: 'Times used', dataIndex: 'times_used', align: 'right' },
          ]}
        />
      )}
    </PageFrame>
  );
}
