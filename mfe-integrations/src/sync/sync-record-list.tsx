import { useState, type ReactNode } from 'react';
import { App, Button, Empty, Flex, Typography } from '@studio/ui';

/** One record's lines: what it is, what went wrong (in red), and when (in grey). */
export interface SyncRecordLines {
  what: ReactNode;
  problem: ReactNode;
  when: ReactNode;
}

/** The one action a record offers ("Retry", "Mark resolved"): its answer replaces the drawer's data. */
export interface SyncRecordAction<T> {
  label: string;
  /** The button's accessible name for a record. */
  name: (record: T) => string;
  run: (record: T) => Promise<unknown>;
  /** The toasts after it worked and after it failed. */
  done: string;
  failed: string;
  /** In the console with the error when it failed. */
  logMessage: string;
}

/**
 * The records of a sync section that wait for the admin (failed syncs, sale conflicts): empty, or
 * how many there are (and how many of the most recent are shown), then each one with its action.
 */
export function SyncRecordList<T extends { id: string }>({
  label,
  empty,
  records,
  total,
  countText,
  describe,
  action,
}: {
  /** The list's accessible name: "Failed syncs". */
  label: string;
  /** What an empty list says: "No failed syncs". */
  empty: string;
  records: T[];
  /** How many there are in all; only the most recent are sent. */
  total: number;
  /** "1 failed sync", "3 failed syncs". */
  countText: (total: number) => string;
  describe: (record: T) => SyncRecordLines;
  action: SyncRecordAction<T>;
}) {
  const { message } = App.useApp();
  const [running, setRunning] = useState<string | null>(null);

  const run = async (record: T) => {
    setRunning(record.id);
    try {
      await action.run(record);
      message.success(action.done);
    } catch (error) {
      console.error(action.logMessage, error);
      message.error(action.failed);
    } finally {
      setRunning(null);
    }
  };

  if (records.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <>
      <Typography.Text strong>
        {countText(total)}
        {total > records.length ? ` (the ${records.length} most recent shown)` : ''}
      </Typography.Text>
      <ul aria-label={label} style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
        {records.map((record) => {
          const { what, problem, when } = describe(record);
          return (
            <li key={record.id} style={{ padding: '8px 0', borderTop: '1px solid rgba(0,0,0,0.06)' }}>
              <Flex justify="space-between" align="flex-start" gap={8}>
                <div style={{ minWidth: 0 }}>
                  <Typography.Text>{what}</Typography.Text>
                  <br />
                  <Typography.Text type="danger">{problem}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">{when}</Typography.Text>
                </div>
                <Button
                  size="small"
                  onClick={() => void run(record)}
                  loading={running === record.id}
                  aria-label={action.name(record)}
                >
                  {action.label}
                </Button>
              </Flex>
            </li>
          );
        })}
      </ul>
    </>
  );
}
