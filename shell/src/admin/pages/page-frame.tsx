import type { ReactNode } from 'react';
import { Card, Empty, Flex, LoadingSkeleton, Typography, useSkeletonDelay } from '@studio/ui';

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
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Flex gap={8}>{actions}</Flex>
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
