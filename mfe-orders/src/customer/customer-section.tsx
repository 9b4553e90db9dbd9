import type { ReactNode } from 'react';
import { Button, Descriptions, DrawerSection, useDrawer } from '@studio/ui';

/** Who bought an order or holds a subscription, as the detail answers name them. */
export interface Customer {
  student_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone?: string | null;
}

/** A link inside a drawer's text (a name, a plan) that opens another drawer. */
export function DrawerLink({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button type="link" style={{ padding: 0, height: 'auto' }} onClick={onClick}>
      {children}
    </Button>
  );
}

/** The Customer section of the order and subscription drawers: the name (opens the student), email, phone if any. */
export function CustomerSection({ student }: { student: Customer }) {
  const drawer = useDrawer();
  return (
    <DrawerSection title="Customer">
      <Descriptions
        column={1}
        size="small"
        items={[
          {
            key: 'name',
            label: 'Name',
            children: (
              <DrawerLink onClick={() => drawer.open('student', { student_id: student.student_id })}>
                {`${student.first_name} ${student.last_name}`}
              </DrawerLink>
            ),
          },
          { key: 'email', label: 'Email', children: student.email },
          ...(student.phone ? [{ key: 'phone', label: 'Phone', children: student.phone }] : []),
        ]}
      />
    </DrawerSection>
  );
}
