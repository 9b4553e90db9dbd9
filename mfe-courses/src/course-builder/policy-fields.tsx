import { useState } from 'react';
import type { UseFormSetValue } from 'react-hook-form';
import { CANCELLATION_POLICIES, RESCHEDULING_POLICIES, defaultPolicyIds } from '@studio/contracts';
import { Flex, Form, Radio, Switch, Typography } from '@studio/ui';
import type { CourseBuilderValues } from './course-builder-values';

interface PolicyFieldsProps {
  cancelPolicyId: number;
  reschedulePolicyId: number;
  setValue: UseFormSetValue<CourseBuilderValues>;
}

const choices = (kind: typeof CANCELLATION_POLICIES) => kind.filter((p) => p.name !== 'Contact the studio');

/**
 * Cancellations and Rescheduling (spec 000 §3, §9): with self-service on, Firm and Agile by
 * default and the admin picks; off, the fixed alternative policy ids are used.
 */
export function PolicyFields({ cancelPolicyId, reschedulePolicyId, setValue }: PolicyFieldsProps) {
  const [selfService, setSelfService] = useState(true);
  const toggle = (on: boolean) => {
    setSelfService(on);
    const ids = defaultPolicyIds(on);
    setValue('cancel_policy_id', ids.cancel_policy_id);
    setValue('reschedule_policy_id', ids.reschedule_policy_id);
  };
  return (
    <>
      <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
        <Switch checked={selfService} onChange={toggle} aria-label="Students can cancel and reschedule" />
        <span>Students can cancel and reschedule</span>
      </Flex>
      {selfService ? (
        <>
          <Form.Item label="Cancellation policy">
            <Radio.Group
              aria-label="Cancellation policy"
              value={cancelPolicyId}
              onChange={(e) => setValue('cancel_policy_id', e.target.value as number)}
            >
              <Flex vertical>
                {choices(CANCELLATION_POLICIES).map((p) => (
                  <Radio key={p.id} value={p.id}>
                    {p.name} <Typography.Text type="secondary">({p.rule})</Typography.Text>
                  </Radio>
                ))}
              </Flex>
            </Radio.Group>
          </Form.Item>
          <Form.Item label="Rescheduling policy">
            <Radio.Group
              aria-label="Rescheduling policy"
              value={reschedulePolicyId}
              onChange={(e) => setValue('reschedule_policy_id', e.target.value as number)}
            >
              <Flex vertical>
                {choices(RESCHEDULING_POLICIES).map((p) => (
                  <Radio key={p.id} value={p.id}>
                    {p.name} <Typography.Text type="secondary">({p.rule})</Typography.Text>
                  </Radio>
                ))}
              </Flex>
            </Radio.Group>
          </Form.Item>
        </>
      ) : (
        <Typography.Text type="secondary">
          Students contact the studio to cancel or reschedule.
        </Typography.Text>
      )}
    </>
  );
}
