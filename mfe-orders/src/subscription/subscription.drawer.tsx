import { useState } from 'react';
import {
  ORDER_ACTIVITY_LABELS,
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_STATUS_LABELS,
  canCancelSubscription,
  formatCents,
} from '@studio/contracts';
import {
  App,
  Button,
  Descriptions,
  DrawerSection,
  DrawerShell,
  Empty,
  Modal,
  QueryGuard,
  Table,
  Tag,
  Typography,
  isApiError,
  useDateFormat,
  useQuery,
  useSkeletonDelay,
  type DrawerProps,
} from '@studio/ui';
import {
  subscriptionQueries,
  useCancelSubscription,
  type SubscriptionDetail,
  type SubscriptionInvoiceRow,
} from '../api/subscriptions';
import { CustomerSection } from '../customer/customer-section';

export interface SubscriptionDrawerData {
  subscription_id: string;
}

const M = SUBSCRIPTION_MESSAGES;
const UNIT: Record<SubscriptionDetail['plan']['interval_unit'], string> = {
  days: 'day',
  weeks: 'week',
  months: 'month',
  years: 'year',
};

/** "$45.00 / month", "$25.00 every 2 weeks". */
export function planPrice(plan: SubscriptionDetail['plan']): string {
  const unit = UNIT[plan.interval_unit];
  return plan.interval_count === 1
    ? `${formatCents(plan.amount)} / ${unit}`
    : `${formatCents(plan.amount)} every ${plan.interval_count} ${unit}s`;
}

/** The toast for a failed cancel (spec 001 §8), from the API's answer. */
export function cancelFailure(error: unknown): string {
  if (isApiError(error) && error.status === 404) return M.cancelNotFound;
  if (isApiError(error) && error.status === 409) return M.alreadyCancelled;
  return M.cancelFailed;
}

/** Cancel subscription, with a confirm: it ends benefits and payments now (spec 001 §4). */
function CancelAction({ subscription }: { subscription: SubscriptionDetail }) {
  const { message } = App.useApp();
  const [confirming, setConfirming] = useState(false);
  const cancel = useCancelSubscription(subscription.subscription_id);

  const start = () => {
    // Cancelled or expired: nothing to confirm (spec 001 §4 blocks it).
    if (!canCancelSubscription(subscription.status)) void message.error(M.alreadyCancelled);
    else setConfirming(true);
  };
  const confirm = () =>
    cancel.mutate(undefined, {
      onSuccess: () => void message.success(M.cancelled),
      onError: (error) => void message.error(cancelFailure(error)),
      onSettled: () => setConfirming(false),
    });

  // A cancelled or expired subscription shows the button disabled with why (issue 25: it stayed clickable).
  const ended = !canCancelSubscription(subscription.status);
  return (
    <>
      <Button danger onClick={start} disabled={ended} aria-describedby={ended ? 'subscription-ended' : undefined}>
        Cancel subscription
      </Button>
      {ended ? (
        <Typography.Text type="secondary" id="subscription-ended">
          {M.alreadyCancelled}
        </Typography.Text>
      ) : null}
      <Modal
        open={confirming}
        title="Cancel subscription"
        okText="Cancel subscription"
        cancelText="Keep subscription"
        okButtonProps={{ danger: true }}
        confirmLoading={cancel.isPending}
        onOk={confirm}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          Cancel {subscription.plan.name} for {subscription.Student.first_name}{' '}
          {subscription.Student.last_name}? Benefits and future payments end now, not at the end of the
          billing period.
        </Typography.Paragraph>
      </Modal>
    </>
  );
}

/** Subscription drawer (spec 001 §2): Current plan, Customer, Billing history; action Cancel subscription. */
export function SubscriptionDrawer({ data }: DrawerProps<SubscriptionDrawerData>) {
  const waiting = useSkeletonDelay();
  const dates = useDateFormat();
  const query = useQuery(subscriptionQueries.detail(data.subscription_id));

  return (
    <QueryGuard query={query} title="Could not load this subscription" pending={waiting}>
      {renderSubscription}
    </QueryGuard>
  );

  function renderSubscription(sub: NonNullable<typeof query.data>) {
    const status = SUBSCRIPTION_STATUS_LABELS[sub.status];

    return (
      <DrawerShell title={sub.plan.name} extra={<CancelAction subscription={sub} />}>
        <DrawerSection title="Current plan">
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: 'plan', label: 'Plan', children: sub.plan.name },
              { key: 'price', label: 'Price', children: planPrice(sub.plan) },
              { key: 'status', label: 'Status', children: <Tag color={status.color}>{status.label}</Tag> },
              { key: 'started', label: 'Started', children: dates.date(sub.created_at) },
              sub.cancelled_at
                ? { key: 'cancelled', label: 'Cancelled on', children: dates.dateTime(sub.cancelled_at) }
                : {
                    key: 'period',
                    label: 'Current period ends',
                    children: sub.current_period_end ? dates.date(sub.current_period_end) : '—',
                  },
            ]}
          />
        </DrawerSection>
        <CustomerSection student={sub.Student} />
        <DrawerSection title="Billing history">
          <Table<SubscriptionInvoiceRow>
            size="small"
            rowKey="invoice_id"
            pagination={false}
            dataSource={sub.subscription_invoices}
            locale={{ emptyText: 'No payments yet' }}
            columns={[
              { key: 'date', title: 'Paid', render: (_, i) => dates.date(i.paid_at) },
              { key: 'amount', title: 'Amount', align: 'right', render: (_, i) => formatCents(i.amount) },
              {
                key: 'receipt',
                title: 'Receipt',
                render: (_, i) =>
                  i.receipt_url ? (
                    <Typography.Link href={i.receipt_url} target="_blank" rel="noopener noreferrer">
                      View
                    </Typography.Link>
                  ) : null,
              },
            ]}
          />
        </DrawerSection>
        <DrawerSection title="History">
          {sub.activity.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Nothing recorded yet" />
          ) : (
            sub.activity.map((a) => (
              <Typography.Paragraph key={a.activity_id} style={{ marginBottom: 8 }}>
                <Typography.Text strong>{ORDER_ACTIVITY_LABELS[a.action]}</Typography.Text>{' '}
                <Typography.Text type="secondary">
                  {dates.dateTime(a.created_at)} by {a.actor ?? 'the payment provider'}
                </Typography.Text>
                {a.detail ? <Typography.Text style={{ display: 'block' }}>{a.detail}</Typography.Text> : null}
              </Typography.Paragraph>
            ))
          )}
        </DrawerSection>
      </DrawerShell>
    );
  }
}
