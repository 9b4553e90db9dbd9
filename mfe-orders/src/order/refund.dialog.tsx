import { useState } from 'react';
import {
  CREDIT_MESSAGES,
  ORDER_MESSAGES,
  REFUND_DESTINATION_LABELS,
  REFUND_DESTINATIONS,
  REFUND_MESSAGES,
  type RefundDestination,
  formatCents,
  partialRefundCents,
  remainingRefundable,
} from '@studio/contracts';
import { App, Flex, Input, Modal, Radio, Typography, isApiError } from '@studio/ui';
import { newIdempotencyKey, useRefundOrder, type OrderDetail } from '../api/orders';

const M = REFUND_MESSAGES;

/** The messages the API answers that the drawer shows as they are (spec 001 §8); anything else is "Failed to refund order: {reason}". */
const AS_IS = new Set<string>([M.notRefundable, M.zeroTotal, M.neverCharged, M.noPaymentMethod, CREDIT_MESSAGES.neverChargedCard]);

/** The toast of a refused refund (spec 001 §8). */
export function refundFailureMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 404) return M.failed(ORDER_MESSAGES.notFound);
    const message = error.body?.message;
    if (message && AS_IS.has(message)) return message;
    if (message) return M.failed(message);
    return M.failed(error.message);
  }
  return M.failed(error instanceof Error ? error.message : String(error));
}

export interface RefundDialogProps {
  order: OrderDetail;
  onClose: () => void;
  onRefunded: (order: OrderDetail) => void;
}

/**
 * The refund dialog (spec 001 §2, §5): full (what is left) or partial. A partial amount is digits
 * with up to 2 decimals, above 0 and at most the remaining amount; a reason is required; otherwise
 * Refund is disabled. One idempotency key per dialog, so a retried click refunds once.
 */
export function RefundDialog({ order, onClose, onRefunded }: RefundDialogProps) {
  const { message } = App.useApp();
  const remaining = remainingRefundable(order);
  const [kind, setKind] = useState<'full' | 'partial'>('full');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  // Issue 24: back to the card, or to the student's store credit (made at once, no card needed).
  const [refundTo, setRefundTo] = useState<RefundDestination>('card');
  const [key] = useState(newIdempotencyKey);
  const refund = useRefundOrder(order.order_id, key);

  const partialCents = kind === 'partial' ? partialRefundCents(amountText, remaining) : null;
  const amountOk = kind === 'full' ? remaining > 0 : partialCents !== null;
  const reasonOk = reason.trim().length > 0;
  const showAmountHint = kind === 'partial' && amountText.trim() !== '' && partialCents === null;

  const submit = async () => {
    try {
      const body = {
        reason: reason.trim(),
        ...(kind === 'partial' && partialCents !== null ? { amount: partialCents } : {}),
        ...(refundTo === 'store_credit' ? { refund_to: refundTo } : {}),
      };
      const updated = await refund.mutateAsync(body);
      message.success(refundTo === 'store_credit' ? CREDIT_MESSAGES.refundedToCredit : M.refunded);
      onRefunded(updated);
    } catch (error) {
      console.error('Could not refund the order', error);
      message.error(refundFailureMessage(error));
    }
  };

  return (
    <Modal
      open
      title="Refund payment"
      okText="Refund"
      okButtonProps={{ danger: true, disabled: !amountOk || !reasonOk }}
      confirmLoading={refund.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Typography.Text>
          Paid {formatCents(order.total)}; refunded {formatCents(order.refunded_amount)};{' '}
          {formatCents(remaining)} can be refunded.
        </Typography.Text>
        <Radio.Group
          value={kind}
          onChange={(e) => setKind(e.target.value as 'full' | 'partial')}
          aria-label="Refund type"
        >
          <Radio value="full">Full refund ({formatCents(remaining)})</Radio>
          <Radio value="partial">Partial refund</Radio>
        </Radio.Group>
        {kind === 'partial' ? (
          <label>
            <Typography.Text>Amount</Typography.Text>
            <Input
              aria-label="Refund amount"
              prefix="$"
              inputMode="decimal"
              placeholder="0.00"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              status={showAmountHint ? 'error' : undefined}
            />
            {showAmountHint ? (
              <Typography.Text type="danger">
                Enter an amount above $0.00 with up to 2 decimals, at most {formatCents(remaining)}.
              </Typography.Text>
            ) : null}
          </label>
        ) : null}
        <label>
          <Typography.Text>Reason</Typography.Text>
          <Input.TextArea
            aria-label="Reason"
            maxLength={500}
            rows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </label>
        <Radio.Group value={refundTo} onChange={(e) => setRefundTo(e.target.value as RefundDestination)} aria-label="Refund to">
          {REFUND_DESTINATIONS.map((d) => (
            <Radio key={d} value={d}>
              {REFUND_DESTINATION_LABELS[d]}
            </Radio>
          ))}
        </Radio.Group>
        <Typography.Text type="secondary">
          {refundTo === 'store_credit' ? "Added to the student's store credit at once; it pays at the store." : M.takesDays}
        </Typography.Text>
      </Flex>
    </Modal>
  );
}
