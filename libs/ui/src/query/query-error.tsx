import { Alert, Button } from 'antd';
import { isApiError } from '../api/api-error';
import { busy } from '../form/busy';

interface QueryErrorProps {
  /** What could not be loaded, e.g. "Could not load this student". */
  title: string;
  error?: unknown;
  /** Loads again (a query's refetch). */
  onRetry: () => unknown;
  retrying?: boolean;
}

/**
 * The error state of a screen's main data (a page's list, a drawer's record): never shown as "No
 * data", always with a Retry. A 401 never gets here: it signs the user out.
 */
export function QueryError({ title, error, onRetry, retrying }: QueryErrorProps) {
  const detail =
    isApiError(error) && error.body?.message
      ? error.body.message
      : isApiError(error)
        ? `The server answered ${error.status}.`
        : 'Check your connection and try again.';
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={title}
      description={detail}
      action={
        <Button size="small" onClick={() => void onRetry()} loading={busy(Boolean(retrying))}>
          Retry
        </Button>
      }
    />
  );
}
