import {
  LOYALTY_BALANCE_MESSAGES as M,
  LOYALTY_REASON_LABELS,
  isPointsInput,
  parsePointsInput,
} from '@studio/contracts';
import { useState } from 'react';
import { App, busy, Button, Flex, Input, Modal, Typography, useDateFormat, type StudentDetail } from '@studio/ui';
import { useSetLoyaltyBalance } from '../api/students';

type Entry = StudentDetail['LoyaltyBalance'][number];

/** Spec 001 §2: the balance is the first entry of the ledger, in en-US number format. */
export function currentPoints(student: StudentDetail): number {
  return student.LoyaltyBalance[0]?.balance ?? 0;
}

/** Spec 001 §4: points can be edited only when the organization's programme (first entry) is active. */
export function loyaltyActive(student: StudentDetail): boolean {
  return student.Organization.LoyaltyProgram[0]?.status === 'active';
}

const points = (n: number) => n.toLocaleString('en-US');

/** The balance with the ledger's newest entries under it (why, how many, who, when). */
export function LoyaltyPoints({ student, timezone }: { student: StudentDetail; timezone: string }) {
  const entries = student.LoyaltyBalance;
  const dates = useDateFormat();
  return (
    <Flex vertical gap={4}>
      <strong aria-label="Points balance">{points(currentPoints(student))}</strong>
      {entries.length > 0 && (
        <ul aria-label="Points history" style={{ margin: 0, paddingLeft: 16 }}>
          {entries.slice(0, 5).map((e: Entry) => (
            <li key={e.entry_id}>
              <Typography.Text type="secondary">
                {`${e.points > 0 ? '+' : ''}${points(e.points)} · ${LOYALTY_REASON_LABELS[e.reason]}${e.actor ? ` by ${e.actor}` : ''} · ${dates.date(e.created_at, timezone)}`}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </Flex>
  );
}

/**
 * The Loyalty dialog (spec 001 §2, §5, §8): "Adjust loyalty points", a "New points balance" field
 * with the suffix "Points" that takes only empty or digits with at most 2 decimals, sent as an
 * integer parsed from the text. Refund (sic) reads "Loading..." while saving; a failure toasts
 * "Failed to refund order:" (sic), is logged, and the dialog stays open.
 */
export function LoyaltyDialog({
  studentId,
  initial,
  onClose,
  onSaved,
}: {
  studentId: string;
  initial: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const [text, setText] = useState(String(initial));
  const setBalance = useSetLoyaltyBalance(studentId);
  const saving = setBalance.isPending;
  const amount = parsePointsInput(text);

  const save = async () => {
    if (amount === null) return;
    try {
      await setBalance.mutateAsync({ params: { path: { student_id: studentId } }, body: { amount } });
      message.success(M.updated);
      onSaved();
    } catch (error) {
      console.error(M.failed, error);
      message.error(M.failed);
    }
  };

  return (
    <Modal
      open
      title={M.title}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button
          key="save"
          type="primary"
          disabled={amount === null}
          loading={busy(saving)}
          onClick={() => void save()}
        >
          {saving ? M.saving : M.save}
        </Button>,
      ]}
    >
      <label htmlFor="new-points-balance">{M.field}</label>
      <Input
        id="new-points-balance"
        inputMode="decimal"
        suffix={M.suffix}
        value={text}
        onChange={(e) => {
          if (isPointsInput(e.target.value)) setText(e.target.value);
        }}
      />
    </Modal>
  );
}
