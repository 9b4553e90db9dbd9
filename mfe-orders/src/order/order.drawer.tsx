import { useState } from 'react';
import {
  ORDER_MESSAGES,
  ORDER_STATUS_LABELS,
  REFUND_MESSAGES,
  SUBSCRIPTION_STATUS_LABELS,
  WORKBENCH_SOURCE,
  orderSourceLabel,
  formatCents,
  pointsToCents,
  refundRefusal,
  refundStatusDisplay,
  CREDIT_MESSAGES,
} from '@studio/contracts';
import {
  Alert,
  App,
  Button,
  Descriptions,
  DrawerSection,
  DrawerShell,
  Dropdown,
  Flex,
  Empty,
  MoreOutlined,
  QueryGuard,
  Table,
  Tag,
  Tooltip,
  Typography,
  billingQueries,
  useDateFormat,
  useDrawer,
  useQuery,
  useSkeletonDelay,
  type DrawerProps,
  type MenuProps,
} from '@studio/ui';
import { orderQueries, type OrderDetail, type OrderLineDetail } from '../api/orders';
import { CustomerSection, DrawerLink } from '../customer/customer-section';
import { OrderHistory } from './order-history';
import { RefundDialog } from './refund.dialog';

export interface OrderDrawerData {
  order_id: string;
}

/** The shell's Billing settings page, where a payment method is added. */
const BILLING_SETTINGS_PATH = '/admin/settings/billing';

/** The receipt link of the order's charge (spec 001 §3 paymentIntent.charges.receipt_url), if any. */
export const receiptUrl = (order: OrderDetail): string | null =>
  order.paymentIntent?.charges.receipt_url ?? null;

/**
 * Actions of spec 001 §2/§6: only for workbench orders (else the menu is disabled with the refund
 * rule's "Sold through {source}: refund it there."). Refund payment opens the refund dialog, or
 * says why the order cannot be refunded ("Order cannot be refunded", "Order total is $0.00",
 * "Payment never charged", "Please add a payment method in billing settings"). Share online
 * receipt opens the receipt in a new tab or says "Receipt URL not found".
 */
function OrderActions({
  order,
  hasPaymentMethod,
  onRefund,
}: {
  order: OrderDetail;
  hasPaymentMethod?: boolean;
  onRefund: () => void;
}) {
  const { message } = App.useApp();
  // The one refund request rule (libs/contracts), asked as the API asks it: an order sold elsewhere
  // disables the whole menu with the API's words; an order the rules never let refund (refunded,
  // $0.00, never charged, not paid) shows Refund payment disabled with why (issue 25: it stayed
  // clickable); a missing payment method stays clickable: its message says what to do.
  const refusal = refundRefusal({ order, has_payment_method: hasPaymentMethod });
  if (refusal?.code === 'not_workbench') {
    return (
      <Tooltip title={refusal.message}>
        <Button aria-label="Order actions" icon={<MoreOutlined />} disabled />
      </Tooltip>
    );
  }
  const blocked = refusal && refusal.code !== 'no_payment_method' ? refusal.message : null;
  const items: MenuProps['items'] = [
    blocked
      ? {
          key: 'refund',
          disabled: true,
          label: (
            <Flex vertical>
              <span>Refund payment</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {blocked}
              </Typography.Text>
            </Flex>
          ),
        }
      : { key: 'refund', label: 'Refund payment' },
    { key: 'receipt', label: 'Share online receipt' },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'refund') {
      if (refusal) void message.error(refusal.message);
      else onRefund();
      return;
    }
    const url = receiptUrl(order);
    // Spec 001 §9: the merchant receipt opens in a new tab.
    if (url) window.open(url, '_blank', 'noopener,noreferrer');
    else void message.error(ORDER_MESSAGES.receiptNotFound);
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']}>
      <Button aria-label="Order actions" icon={<MoreOutlined />} />
    </Dropdown>
  );
}

/**
 * The refunds ledger: amount, reason, who (or In Stripe, for a refund made in the Stripe dashboard),
 * when, and its status at the provider (a failed one gave its amount back: it must not read as paid out).
 */
function RefundHistory({ order }: { order: OrderDetail }) {
  const dates = useDateFormat();
  if (order.refunds.length === 0) return null;
  return (
    <Table<OrderDetail['refunds'][number]>
      style={{ marginTop: 12 }}
      size="small"
      rowKey="refund_id"
      pagination={false}
      dataSource={order.refunds}
      title={() => 'Refunds'}
      columns={[
        { key: 'date', title: 'Date', render: (_, r) => dates.dateTime(r.created_at) },
        { key: 'amount', title: 'Amount', align: 'right', render: (_, r) => formatCents(r.amount) },
        { key: 'reason', title: 'Reason', render: (_, r) => r.reason },
        // A refund made in the Stripe dashboard has no admin: it says where it was made.
        {
          key: 'by',
          title: 'By',
          render: (_, r) => r.actor ?? (r.origin === 'provider' ? REFUND_MESSAGES.madeAtProvider : ''),
        },
        {
          key: 'status',
          title: 'Status',
          render: (_, r) => {
            // A refund to store credit is made at once, with no provider: it says where it went.
            if (r.refund_to === 'store_credit' && r.status === 'succeeded') return <Tag color="purple">{CREDIT_MESSAGES.storeCredit}</Tag>;
            const { label, color } = refundStatusDisplay(r.status);
            return <Tag color={color}>{label}</Tag>;
          },
        },
      ]}
    />
  );
}

type Submission = OrderDetail['submissions'][number];

/**
 * One set of checkout form answers (issue 21): the order's, or a ticket's ("Ticket 1"…), each
 * field under the label the buyer read; an unanswered field shows a dash.
 */
function CheckoutFormAnswers({ submission }: { submission: Submission }) {
  const title = submission.ticket === null ? 'Answers' : `Ticket ${submission.ticket}`;
  return (
    <div role="group" aria-label={title} style={{ marginBottom: 12 }}>
      <Descriptions
        title={submission.ticket === null ? undefined : title}
        column={1}
        size="small"
        items={submission.answers.map((a, i) => ({
          key: String(i),
          label: a.label,
          children: <span style={{ whiteSpace: 'pre-wrap' }}>{a.value || '—'}</span>,
        }))}
      />
    </div>
  );
}

/** Order drawer (spec 001 §2): Order summary, Subscriptions, Checkout forms, Customer. */
export function OrderDrawer({ data }: DrawerProps<OrderDrawerData>) {
  const waiting = useSkeletonDelay();
  const drawer = useDrawer();
  const dates = useDateFormat();
  const query = useQuery(orderQueries.detail(data.order_id));
  const [refunding, setRefunding] = useState(false);
  const isWorkbench = query.data?.source === WORKBENCH_SOURCE;
  // A refund needs a payment method on file (spec 001 §6); asked only for workbench orders.
  const methods = useQuery({ ...billingQueries.paymentMethods(), enabled: isWorkbench });
  const hasPaymentMethod = methods.data ? methods.data.payment_methods.length > 0 : undefined;

  return (
    <QueryGuard query={query} title="Could not load this order" pending={waiting}>
      {renderOrder}
    </QueryGuard>
  );

  function renderOrder(order: NonNullable<typeof query.data>) {
    const status = ORDER_STATUS_LABELS[order.status];

    return (
      <DrawerShell
        title={`Order #${order.order_number}`}
        extra={
          <>
            {order.source !== WORKBENCH_SOURCE ? (
              <Typography.Text type="secondary">{ORDER_MESSAGES.soldThrough(order.source)}</Typography.Text>
            ) : null}
            <OrderActions
              order={order}
              hasPaymentMethod={hasPaymentMethod}
              onRefund={() => setRefunding(true)}
            />
          </>
        }
      >
        {isWorkbench && hasPaymentMethod === false ? (
          <Alert
            type="warning"
            showIcon
            message={REFUND_MESSAGES.noPaymentMethod}
            action={
              <Button size="small" href={BILLING_SETTINGS_PATH}>
                Billing settings
              </Button>
            }
          />
        ) : null}
        <DrawerSection title="Order summary">
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: 'number', label: 'Order number', children: `#${order.order_number}` },
              { key: 'date', label: 'Date', children: dates.dateTime(order.created_at) },
              { key: 'status', label: 'Status', children: <Tag color={status.color}>{status.label}</Tag> },
              { key: 'source', label: 'Source', children: orderSourceLabel(order.source) },
            ]}
          />
          <Table<OrderLineDetail>
            style={{ marginTop: 12 }}
            size="small"
            rowKey="line_id"
            pagination={false}
            dataSource={order.lines}
            locale={{ emptyText: 'No items' }}
            columns={[
              { key: 'item', title: 'Item', render: (_, l) => l.description },
              { key: 'qty', title: 'Qty', align: 'right', render: (_, l) => l.quantity },
              { key: 'price', title: 'Price', align: 'right', render: (_, l) => formatCents(l.unit_price) },
              {
                key: 'discount',
                title: 'Discount',
                align: 'right',
                render: (_, l) => (l.discount ? `−${formatCents(l.discount)}` : ''),
              },
              { key: 'total', title: 'Total', align: 'right', render: (_, l) => formatCents(l.total) },
            ]}
          />
          <Descriptions
            style={{ marginTop: 12 }}
            column={1}
            size="small"
            items={[
              ...(order.discount_code
                ? [{ key: 'code', label: 'Discount code', children: order.discount_code }]
                : []),
              ...(order.points_redeemed > 0
                ? [
                    {
                      key: 'points',
                      label: 'Points redeemed',
                      children: `${order.points_redeemed.toLocaleString('en-US')} points (−${formatCents(pointsToCents(order.points_redeemed))})`,
                    },
                  ]
                : []),
              { key: 'total', label: 'Total', children: formatCents(order.total) },
              { key: 'refunded', label: 'Refunded', children: formatCents(order.refunded_amount) },
            ]}
          />
          <RefundHistory order={order} />
          <OrderHistory order={order} />
        </DrawerSection>
        <DrawerSection title="Subscriptions">
          {order.Subscription.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No subscriptions in this order" />
          ) : (
            order.Subscription.map((s) => (
              <div key={s.subscription_id}>
                <DrawerLink
                  onClick={() => drawer.open('subscription', { subscription_id: s.subscription_id })}
                >
                  {s.plan_name}
                </DrawerLink>{' '}
                {dates.date(s.created_at)}{' '}
                <Tag color={SUBSCRIPTION_STATUS_LABELS[s.status].color}>
                  {SUBSCRIPTION_STATUS_LABELS[s.status].label}
                </Tag>
              </div>
            ))
          )}
        </DrawerSection>
        <DrawerSection title="Checkout forms">
          {order.submissions.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No checkout form answers" />
          ) : (
            order.submissions.map((s) => <CheckoutFormAnswers key={s.submission_id} submission={s} />)
          )}
        </DrawerSection>
        <CustomerSection student={order.Student} />
        {refunding ? (
          <RefundDialog
            order={order}
            onClose={() => setRefunding(false)}
            onRefunded={() => {
              setRefunding(false);
            }}
          />
        ) : null}
      </DrawerShell>
    );
  }
}
