import type { FormEventHandler, ReactNode } from 'react';
import { Button, Form } from '../antd/antd-components';
import { busy } from '../form/busy';
import { DrawerShell } from './drawer-shell';
import { useCancel } from './unsaved-changes';

interface FormDrawerProps {
  /** The drawer's heading and the form's accessible name. */
  title: string;
  /** Beside the title: a badge, a menu. */
  extra?: ReactNode;
  /** react-hook-form's `handleSubmit(...)`: the contract's resolver validates, not the browser. */
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Cancel asks "Discard unsaved changes?" first inside a drawer host (useCancel). */
  close: () => void;
  /** `formState.isSubmitting`: the submit button shows its spinner (after busy's delay). */
  submitting: boolean;
  submitLabel?: string;
  /** More footer buttons, between Cancel and the submit button. */
  actions?: ReactNode;
  /** A message about the whole form (a failed save), above the sections. */
  formError?: string | null;
  children: ReactNode;
}

/**
 * The skeleton of a drawer that edits one form: the form element around the drawer shell, Cancel
 * and the submit button in the footer, and the vertical antd layout the FormFields sit in.
 */
export function FormDrawer({
  title,
  extra,
  onSubmit,
  close,
  submitting,
  submitLabel = 'Save',
  actions,
  formError,
  children,
}: FormDrawerProps) {
  const cancel = useCancel(close);
  return (
    <form onSubmit={onSubmit} aria-label={title} noValidate>
      <DrawerShell
        title={title}
        extra={extra}
        footer={
          <>
            <Button onClick={cancel}>Cancel</Button>
            {actions}
            <Button type="primary" htmlType="submit" loading={busy(submitting)}>
              {submitLabel}
            </Button>
          </>
        }
      >
        <Form layout="vertical" component={false}>
          {formError ? (
            <div role="alert" style={{ color: '#cf1322', marginBottom: 12 }}>
              {formError}
            </div>
          ) : null}
          {children}
        </Form>
      </DrawerShell>
    </form>
  );
}
