import type { ReactNode } from 'react';
import { Divider, Flex, Typography } from 'antd';

interface DrawerShellProps {
  title: ReactNode;
  /** Beside the title: a badge, a menu. */
  extra?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}

/** The drawer host positions the drawer body so the shell can fill it (see DRAWER_BODY_STYLE). */
export const DRAWER_BODY_STYLE = { position: 'relative' } as const;

/**
 * The layout every drawer body shares: a heading, titled sections, a footer with the actions.
 * The shell fills the drawer body; only the sections scroll, in their own box that ends above the
 * footer, so the footer never covers a field and the last field scrolls fully into view.
 */
export function DrawerShell({ title, extra, footer, children }: DrawerShellProps) {
  return (
    <Flex vertical style={{ position: 'absolute', inset: 0, minHeight: 0 }} data-drawer-shell="">
      <Flex justify="space-between" align="center" gap={8} style={{ flex: 'none', padding: '24px 24px 0' }}>
        <Typography.Title level={3} style={{ margin: 0, minWidth: 0, overflowWrap: 'break-word' }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      <div
        data-drawer-scroll=""
        style={{
          flex: '1 1 auto',
          minHeight: 0,
          overflowY: 'auto',
          overflowX: 'hidden',
          padding: '16px 24px 24px',
        }}
      >
        {children}
      </div>
      {footer ? (
        <Flex
          justify="flex-end"
          gap={8}
          wrap
          role="group"
          aria-label="Drawer actions"
          style={{ flex: 'none', padding: '12px 24px', borderTop: '1px solid rgba(5, 5, 5, 0.06)' }}
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
