import type { ReactNode } from 'react';
import { Divider, Flex, Typography } from 'antd';

interface DrawerShellProps {
  title: ReactNode;
  /** Beside the title: a badge, a menu. */
  extra?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}

/** The layout every drawer body shares: a heading, titled sections, a footer with the actions. */
export function DrawerShell({ title, extra, footer, children }: DrawerShellProps) {
  return (
    <Flex vertical style={{ minHeight: '100%' }}>
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      <div style={{ flex: 1, paddingTop: 16 }}>{children}</div>
      {footer ? (
        <Flex
          justify="flex-end"
          gap={8}
          style={{ position: 'sticky', bottom: 0, paddingTop: 16, background: 'inherit' }}
        >
          {footer}
        </Flex>
      ) : null}
    </Flex>
  );
}

export function DrawerSection({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={typeof title === 'string' ? title : undefined}>
      <Divider titlePlacement="start" style={{ marginTop: 8 }}>
        {title}
      </Divider>
      {children}
    </section>
  );
}
