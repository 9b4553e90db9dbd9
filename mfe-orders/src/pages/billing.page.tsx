import { useState } from 'react';
import { BILLING_MESSAGES } from '@studio/contracts';
import {
  $api,
  App,
  Button,
  Flex,
  QueryGuard,
  Table,
  Typography,
  billingQueries,
  useQuery,
  type PaymentMethod,
  PageFrame,
} from '@studio/ui';

/**
 * /admin/settings/billing: the studio's payment methods on file (a refund needs one, spec 001 §6)
 * and "Add payment method", which opens the provider's page (Stripe Checkout in setup mode, or the
 * demo provider's page) in a new tab; the list reads again when the admin comes back.
 */
export function BillingPage() {
  const { message } = App.useApp();
  // While the provider's page is open in another tab, the list reads again every few seconds (for
  // ten minutes) and when this tab gets focus back, so a card saved there shows here without a
  // reload (issue 25).
  const [awaitingUntil, setAwaitingUntil] = useState(0);
  const query = useQuery({
    ...billingQueries.paymentMethods(),
    refetchOnWindowFocus: 'always',
    refetchInterval: () => (Date.now() < awaitingUntil ? 3000 : false),
  });
  const setup = $api.useMutation('post', '/api/admin/payment-methods/setup', {
    onSuccess: ({ url }) => {
      setAwaitingUntil(Date.now() + 10 * 60_000);
      window.open(url, '_blank', 'noopener,noreferrer');
    },
    onError: (error) => {
      console.error('Opening the payment method setup failed', error);
      message.error(BILLING_MESSAGES.setupFailed);
    },
  });

  const body = (
    <QueryGuard query={query} title={BILLING_MESSAGES.loadFailed}>
      {(answer) => (
        <Flex vertical gap={16}>
          {answer.provider === 'demo' ? (
            <Typography.Text type="secondary">{BILLING_MESSAGES.demo}</Typography.Text>
          ) : null}
          <Table<PaymentMethod>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={answer.payment_methods}
            locale={{ emptyText: BILLING_MESSAGES.none }}
            columns={[
              { key: 'card', title: 'Card', render: (_, m) => `${m.brand.toUpperCase()} •••• ${m.last4}` },
              {
                key: 'expires',
                title: 'Expires',
                render: (_, m) => `${String(m.exp_month).padStart(2, '0')}/${m.exp_year}`,
              },
            ]}
          />
          <div>
            <Button type="primary" loading={setup.isPending} onClick={() => setup.mutate({})}>
              Add payment method
            </Button>
          </div>
        </Flex>
      )}
    </QueryGuard>
  );
  return <PageFrame title="Billing">{body}</PageFrame>;
}
