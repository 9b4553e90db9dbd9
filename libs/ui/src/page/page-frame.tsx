import type { ReactNode } from 'react';
import { Card, Empty, Flex, Typography } from '../antd/antd-components';
import { LoadingSkeleton, useSkeletonDelay } from '../drawer/loading-skeleton';

/** A page heading with its actions and, for now, an empty list under a 500 ms skeleton. */
export function PageFrame({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const waiting = useSkeletonDelay();
  return (
    <section aria-label={title}>
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={2} style={{ margin: 0, minWidth: 0, overflowWrap: 'break-word' }}>
          {title}
        </Typography.Title>
        <Flex gap={8} wrap>
          {actions}
        </Flex>
      </Flex>
      <Card>
        {waiting ? (
          <LoadingSkeleton />
        ) : (
          (children ?? <Empty description={`No ${title.toLowerCase()} yet`} />)
        )}
      </Card>
    </section>
  );
}
