import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  MAX_WALLET_NOTE_LENGTH,
  WALLET_KIND_LABELS,
  WALLET_MESSAGES,
  WALLET_REASON_LABELS,
  describeCoverage,
  formatHoldingBalance,
  formatWalletAmount,
  walletAdjustFormSchema,
  type WalletAdjustFormInput,
  type WalletUnit,
} from '@studio/contracts';
import {
  Alert,
  App,
  Button,
  Empty,
  Flex,
  Form,
  FormField,
  Input,
  Modal,
  QueryGuard,
  Tag,
  Typography,
  courseQueries,
  serverMessage,
  setServerFieldErrors,
  useDateFormat,
  useQuery,
  usePickerList,
  useSession,
  zodResolver,
} from '@studio/ui';
import { useAdjustWallet, walletQueries } from '../api/students';

type Holding = { holding_id: string; label: string; unit: WalletUnit; balance: number };

/**
 * The Wallet section of the student drawer (issue 24): memberships, class packs, gift cards and
 * store credit with what is left and the expiry, and the newest ledger rows (what, how much, why,
 * who, when). Owners (and super admins) adjust a holding with a reason; staff only read.
 */
export function StudentWallet({ studentId }: { studentId: string }) {
  const dates = useDateFormat();
  const role = useSession().session?.user.role;
  const canAdjust = role === 'owner' || role === 'super_admin';
  const [adjusting, setAdjusting] = useState<Holding | null>(null);
  const query = useQuery(walletQueries.detail(studentId));
  // Course names only when a membership or pack names courses (the courses list the app shares).
  const namesCourses = Boolean(query.data?.holdings.some((h) => h.covers_activity_ids?.length));
  const { items: courses } = usePickerList(courseQueries.list(), (a) => a.activities, 'courses', namesCourses);
  const courseNames = new Map(courses.map((c) => [c.activity_id, c.name]));
  return (
    <QueryGuard query={query} title="Could not load the wallet">
      {({ holdings, entries }) => {
        if (holdings.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Holds nothing yet" />;
        const byId = new Map(holdings.map((h) => [h.holding_id, h]));
        return (
          <Flex vertical gap={12}>
            <ul aria-label="Holdings" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {holdings.map((h) => (
                <li key={h.holding_id} style={{ borderBottom: '1px solid rgba(5, 5, 5, 0.06)', padding: '8px 4px' }}>
                  <Flex gap={12} align="center" justify="space-between">
                    <Flex vertical style={{ minWidth: 0 }}>
                      <Typography.Text strong ellipsis>
                        {h.label}
                      </Typography.Text>
                      <Typography.Text type="secondary">
                        {WALLET_KIND_LABELS[h.kind]} · {formatHoldingBalance(h)}
                        {h.unlimited ? '' : ' left'}
                        {h.kind === 'membership' || h.kind === 'pack' ? ` · ${describeCoverage(h, courseNames)}` : ''}
                        {h.expires_at ? ` · ${h.status === 'expired' ? 'expired' : 'expires'} ${dates.date(h.expires_at)}` : ''}
                      </Typography.Text>
                    </Flex>
                    <Flex gap={8} align="center">
                      {h.status === 'expired' ? <Tag>Expired</Tag> : null}
                      {canAdjust && h.status === 'active' ? (
                        <Button size="small" aria-label={`Adjust ${h.label}`} onClick={() => setAdjusting(h)}>
                          Adjust
                        </Button>
                      ) : null}
                    </Flex>
                  </Flex>
                </li>
              ))}
            </ul>
            {entries.length > 0 && (
              <ul aria-label="Wallet history" style={{ margin: 0, paddingLeft: 16 }}>
                {entries.map((e) => {
                  const holding = byId.get(e.holding_id);
                  const change = holding ? formatWalletAmount(e.amount, holding.unit) : String(e.amount);
                  return (
                    <li key={e.entry_id}>
                      <Typography.Text type="secondary">
                        {`${e.amount > 0 ? '+' : ''}${change} · ${WALLET_REASON_LABELS[e.reason]}${holding ? ` (${holding.label})` : ''}${e.note ? `: ${e.note}` : ''}${e.actor ? ` by ${e.actor}` : ''} · ${dates.dateTime(e.created_at)}`}
                      </Typography.Text>
                    </li>
                  );
                })}
              </ul>
            )}
            {adjusting && <AdjustDialog studentId={studentId} holding={adjusting} onClose={() => setAdjusting(null)} />}
          </Flex>
        );
      }}
    </QueryGuard>
  );
}

/** Adjust: a signed change in the holding's unit (dollars for money) and the reason, both required. */
function AdjustDialog({ studentId, holding, onClose }: { studentId: string; holding: Holding; onClose: () => void }) {
  const { message } = App.useApp();
  const adjust = useAdjustWallet(studentId);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<WalletAdjustFormInput, unknown, { amount: number; reason: string }>({
    resolver: zodResolver(walletAdjustFormSchema(holding.unit)),
    defaultValues: { amount: '', reason: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await adjust.mutateAsync({ holdingId: holding.holding_id, ...values });
      message.success(WALLET_MESSAGES.adjusted);
      onClose();
    } catch (error) {
      if (setServerFieldErrors(error, setError, ['amount', 'reason'])) return;
      setFailure(serverMessage(error, WALLET_MESSAGES.adjustFailed));
    }
  });

  return (
    <Modal
      open
      title={`Adjust ${holding.label}`}
      okText="Save"
      confirmLoading={formState.isSubmitting}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        <Typography.Paragraph>Now: {formatWalletAmount(holding.balance, holding.unit)} left.</Typography.Paragraph>
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
        <FormField
          control={control}
          name="amount"
          label={holding.unit === 'cents' ? 'Change ($)' : `Change (${holding.unit})`}
          required
          extra="Use - to take away."
        >
          {(field, state) => (
            <Input
              id="amount"
              aria-label="Change"
              status={state.error ? 'error' : undefined}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        </FormField>
        <FormField control={control} name="reason" label="Reason" required extra="Shown in the ledger.">
          {(field, state) => (
            <Input.TextArea
              id="reason"
              aria-label="Reason"
              rows={2}
              maxLength={MAX_WALLET_NOTE_LENGTH}
              status={state.error ? 'error' : undefined}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        </FormField>
      </Form>
    </Modal>
  );
}
