import { useState } from 'react';
import { App, Button, Form, Input, Modal } from '@studio/ui';
import { setLoyaltyBalance } from './student.api';
import { POINTS_INPUT_PATTERN, STUDENT_MESSAGES } from './student-messages';

interface Props {
  studentId: string;
  current: number;
  onClose: () => void;
  onSaved: () => void;
}

/** 'Adjust loyalty points': sets a new balance; a failure keeps the dialog open (spec 001 §2, §8). */
export function LoyaltyDialog({ studentId, current, onClose, onSaved }: Props) {
  const { message } = App.useApp();
  const [text, setText] = useState(String(current));
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      // Sent as an integer parsed from the text.
      await setLoyaltyBalance(studentId, parseInt(text || '0', 10));
      onSaved();
    } catch (error) {
      console.error(STUDENT_MESSAGES.pointsFailed, error);
      message.error(STUDENT_MESSAGES.pointsFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title="Adjust loyalty points"
      onCancel={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" onClick={() => void save()} disabled={saving || text === ''}>
            {saving ? 'Loading...' : 'Refund'}
          </Button>
        </>
      }
    >
      <Form layout="vertical" component={false}>
        <Form.Item label="New points balance" htmlFor="new-points-balance">
          <Input
            id="new-points-balance"
            inputMode="decimal"
            value={text}
            suffix="Points"
            onChange={(event) => {
              if (POINTS_INPUT_PATTERN.test(event.target.value)) setText(event.target.value);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
