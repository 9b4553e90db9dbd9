import { useState } from 'react';
import {
  CREDIT_MESSAGES,
  REFUND_DESTINATION_LABELS,
  REFUND_DESTINATIONS,
  REFUND_MESSAGES,
  REFUND_REASONS,
  type RefundDestination,
  SCHEDULING_MESSAGES,
  formatCents,
  refundAmountText,
  removalRefundAmount,
} from '@studio/contracts';
import {
  App,
  Checkbox,
  Flex,
  Input,
  Modal,
  QueryGuard,
  Radio,
  Select,
  Skeleton,
  Typography,
  isApiError,
  useQuery,
  useQueryClient,
  useSession,
  type DrawerProps,
  type GuardedQuery,
} from '@studio/ui';
import { refundQuoteQuery, removeEnrollment, type RefundQuote } from './add-student.api';
import { appointmentRefundQuoteQuery, cancelAppointment, refreshAppointments } from './appointment.api';

/** The appointment whose student is removed (issue 22): the appointment is cancelled, its time freed. */
export interface RemovedAppointment {
  id: string;
}

export interface RemoveStudentData {
  /** A session's enrollment; or else `appointment`. */
  enrollment_id?: string;
  appointment?: RemovedAppointment;
  student_name?: string;
  onDone?: () => void;
}

const M = REFUND_MESSAGES;

/** A refused refund answers `errors.refund`: the student stays enrolled and the toast says the refund failed. */
const refundWasRefused = (error: unknown) => isApiError(error) && Boolean(error.body?.errors?.refund);

interface RefundFormProps {
  quote: RefundQuote;
  on: boolean;
  setOn: (on: boolean) => void;
  amount: string;
  setAmount: (text: string) => void;
  reason: string | undefined;
  setReason: (reason: string) => void;
  errors: { amount?: string; reason?: string };
  refundTo: RefundDestination;
  setRefundTo: (to: RefundDestination) => void;
}

/** Which destinations the quote allows: the card unless refused, store credit unless refused (issue 24). */
function destinations(quote: RefundQuote): RefundDestination[] {
  return REFUND_DESTINATIONS.filter((d) => (d === 'card' ? !quote.refusal : quote.credit_refusal === null));
}

/** The refund part of Remove student (spec 000 §5): amount suggested by the course's cancellation policy now, and a reason. */
function RefundForm({
  quote,
  on,
  setOn,
  amount,
  setAmount,
  reason,
  setReason,
  errors,
  refundTo,
  setRefundTo,
}: RefundFormProps) {
  if (!quote.order)
    return <Typography.Text type="secondary">No order to refund for this student.</Typography.Text>;
  const allowed = destinations(quote);
  if (allowed.length === 0)
    return <Typography.Text type="secondary">Refund: {quote.refusal}</Typography.Text>;
  if (quote.refundable === 0) return <Typography.Text type="secondary">{M.notRefundable}</Typography.Text>;
  const policy = quote.policy;
  return (
    <Flex vertical gap={8}>
      <Checkbox checked={on} onChange={(e) => setOn(e.target.checked)}>
        Refund order #{quote.order.order_number} (paid {formatCents(quote.order.total)},{' '}
        {formatCents(quote.refundable)} refundable)
      </Checkbox>
      {policy ? (
        <Typography.Text type="secondary">
          {policy.name} cancellation policy: {policy.rule}. Suggested now:{' '}
          {formatCents(quote.suggested_amount)}.
        </Typography.Text>
      ) : null}
      {on ? (
        <>
          <label>
            <Typography.Text>Refund amount</Typography.Text>
            <Input
              aria-label="Refund amount"
              prefix="$"
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              status={errors.amount ? 'error' : undefined}
            />
            {errors.amount ? <Typography.Text type="danger">{errors.amount}</Typography.Text> : null}
          </label>
          <label>
            <Typography.Text>Reason</Typography.Text>
            <Select
              aria-label="Refund reason"
              style={{ width: '100%' }}
              placeholder="Select a reason"
              value={reason}
              onChange={setReason}
              options={REFUND_REASONS.map((r) => ({ value: r, label: r }))}
              status={errors.reason ? 'error' : undefined}
            />
            {errors.reason ? <Typography.Text type="danger">{errors.reason}</Typography.Text> : null}
          </label>
          <Radio.Group
            value={refundTo}
            onChange={(e) => setRefundTo(e.target.value as RefundDestination)}
            aria-label="Refund to"
          >
            {REFUND_DESTINATIONS.map((d) => (
              <Radio key={d} value={d} disabled={!allowed.includes(d)}>
                {REFUND_DESTINATION_LABELS[d]}
              </Radio>
            ))}
          </Radio.Group>
          {quote.refusal ? (
            <Typography.Text type="secondary">Refund to card: {quote.refusal}</Typography.Text>
          ) : null}
          <Typography.Text type="secondary">
            {refundTo === 'store_credit'
              ? "Added to the student's store credit at once; it pays at the store."
              : M.takesDays}
          </Typography.Text>
        </>
      ) : null}
    </Flex>
  );
}

/**
 * Remove student (spec 000 §5, §8): frees the seat and, when the student paid, offers a refund of the
 * order suggested by the course's cancellation policy at this moment. Removing and refunding are one
 * operation on the server: if the refund fails, the student stays enrolled.
 */
export function RemoveStudentDialog({ data, close }: DrawerProps<RemoveStudentData>) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const appointment = data.appointment;
  // The server's quote: of the session's enrollment, or of the appointment.
  const enrollmentQuote = useQuery({ ...refundQuoteQuery(data.enrollment_id ?? ''), enabled: !appointment });
  const appointmentQuote = useQuery({
    ...appointmentRefundQuoteQuery(appointment?.id ?? ''),
    enabled: Boolean(appointment),
  });
  const quote: GuardedQuery<RefundQuote> & { isPending: boolean } = appointment
    ? appointmentQuote
    : enrollmentQuote;
  const [touched, setTouched] = useState(false);
  const [on, setOn] = useState<boolean | null>(null);
  const [amount, setAmount] = useState<string | null>(null);
  const [reason, setReason] = useState<string | undefined>(undefined);
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const [chosenTo, setRefundTo] = useState<RefundDestination | null>(null);
  const [keepUse, setKeepUse] = useState(false);
  const role = useSession().session?.user.role;
  const isOwner = role === 'owner' || role === 'super_admin';

  const q = quote.data;
  const allowed = q?.order ? destinations(q) : [];
  // The card by default; store credit when only it is allowed (no card on file, paid with wallet money).
  const refundTo: RefundDestination =
    chosenTo && allowed.includes(chosenTo) ? chosenTo : (allowed[0] ?? 'card');
  const canRefund = Boolean(q?.order && allowed.length > 0 && q.refundable > 0);
  // Until the admin changes them: refund on when the policy suggests an amount, and that amount.
  const refundOn = canRefund && (on ?? (q?.suggested_amount ?? 0) > 0);
  const amountText = amount ?? (q ? refundAmountText(q.suggested_amount) : '');

  const remove = async () => {
    setTouched(true);
    let refund: { amount: number; reason: string; refund_to?: RefundDestination } | undefined;
    if (refundOn && q) {
      const parsed = removalRefundAmount(amountText, q.refundable);
      const next = {
        amount: 'error' in parsed ? parsed.error : undefined,
        reason: reason ? undefined : M.selectReason,
      };
      setErrors(next);
      if (next.amount || next.reason || 'error' in parsed) return;
      refund = {
        amount: parsed.cents,
        reason: reason!,
        ...(refundTo === 'store_credit' ? { refund_to: refundTo } : {}),
      };
    }
    const keep = isOwner && keepUse && Boolean(q?.use && !q.use.returned);
    setBusy(true);
    try {
      if (appointment) {
        await cancelAppointment(appointment.id, {
          ...(refund ? { refund } : {}),
          ...(keep ? { keep_use: true } : {}),
        });
        void refreshAppointments(queryClient);
      } else await removeEnrollment(data.enrollment_id ?? '', refund, keep ? { keep_use: true } : {});
      message.success(SCHEDULING_MESSAGES.studentRemoved);
      data.onDone?.();
      close();
    } catch (error) {
      console.error('Could not remove the student', error);
      message.error(
        refund && refundWasRefused(error) ? M.removeRefundFailed : SCHEDULING_MESSAGES.removeFailed,
      );
      setBusy(false);
    }
  };

  const revalidate = (next: { amount?: string; reason?: string }) => {
    if (!touched || !q) return;
    const parsed = removalRefundAmount(next.amount ?? amountText, q.refundable);
    setErrors({
      amount: 'error' in parsed ? parsed.error : undefined,
      reason: (next.reason ?? reason) ? undefined : M.selectReason,
    });
  };

  return (
    <Modal
      open
      title="Remove student"
      okText="Remove"
      okButtonProps={{ danger: true, disabled: quote.isPending }}
      confirmLoading={busy}
      onOk={() => void remove()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {appointment
          ? `Remove ${data.student_name || 'this student'} from this appointment? It is cancelled and its time freed; the student is mailed and the order stays in the history.`
          : `Remove ${data.student_name || 'this student'} from this session? The seat is freed; the order stays in the history.`}
      </Typography.Paragraph>
      <QueryGuard
        query={quote}
        title="Could not load the student's order"
        loading={<Skeleton active paragraph={{ rows: 2 }} title={false} />}
      >
        {(loaded) => (
          <Flex vertical gap={8}>
            <RefundForm
              quote={loaded}
              on={refundOn}
              setOn={setOn}
              amount={amountText}
              setAmount={(text) => {
                setAmount(text);
                revalidate({ amount: text });
              }}
              reason={reason}
              setReason={(r) => {
                setReason(r);
                revalidate({ reason: r });
              }}
              errors={errors}
              refundTo={refundTo}
              setRefundTo={setRefundTo}
            />
            {loaded.use && !loaded.use.returned ? (
              <Flex vertical gap={4}>
                <Typography.Text>
                  {loaded.use.label}:{' '}
                  {keepUse
                    ? `the ${loaded.use.unit === 'bookings' ? 'membership booking' : 'class credit'} used is kept.`
                    : loaded.use.message}
                </Typography.Text>
                {isOwner ? (
                  <Checkbox checked={keepUse} onChange={(e) => setKeepUse(e.target.checked)}>
                    {CREDIT_MESSAGES.keepUse}
                  </Checkbox>
                ) : null}
              </Flex>
            ) : null}
          </Flex>
        )}
      </QueryGuard>
    </Modal>
  );
}
