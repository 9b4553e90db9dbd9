import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result } from 'antd';

/**
 * A remote built for a shared library (React, the forms library, the query client, @studio/ui) at
 * a version the shell does not offer: it is refused rather than run on the shell's older copy. The
 * message says which remote needs what; retrying cannot help until one of them is released again.
 */
export class RemoteVersionError extends Error {
  override name = 'RemoteVersionError';
}

/**
 * The federation runtime's refusal of a shared singleton a remote needs at a version the shell does
 * not offer (strictVersion). It comes from loading the remote's registry or, later, one drawer's
 * chunk (where the library is first consumed).
 */
const VERSION_REFUSAL =
  /Version (\S*) from \S* of shared singleton module (\S+) does not satisfy the requirement of (\S+) which needs ([^)\s]+)/;

/** A version refusal told the way an admin can act on (a RemoteVersionError); other errors as they are. */
export function explainRemoteError(error: unknown, remote?: string): unknown {
  if (error instanceof RemoteVersionError) return error;
  const found = error instanceof Error ? VERSION_REFUSAL.exec(error.message) : null;
  if (!found) return error;
  const [, offered, library, from, needs] = found;
  const who = remote ? `mfe_${remote}` : from !== 'undefined' ? from : 'This panel';
  return new RemoteVersionError(
    `${who} needs ${library} ${needs}, but this admin offers ${offered || 'none'}. ` +
      'It opens once the admin is updated, or once that remote is built for this one.',
    { cause: error },
  );
}

interface Props {
  /** Clears the failed load so the next render tries again. */
  onRetry: () => void;
  /** A failure belongs to what it was shown for: another value (a page's route) clears it. */
  resetKey?: string;
  children: ReactNode;
}

/** A drawer or page whose remote or code fails shows the failure in its own panel with a retry. */
export class RemoteErrorBoundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error: explainRemoteError(error) as Error };
  }

  // After the commit, as react-error-boundary does: deriving it during render would clear the error
  // React is about to show (the capture re-renders from the state before the new key).
  override componentDidUpdate(previous: Props) {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Remote panel failed to load', error, info.componentStack);
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (error instanceof RemoteVersionError)
      return (
        <Result
          status="warning"
          title="This panel needs a newer version of the admin"
          subTitle={error.message}
        />
      );
    return (
      <Result
        status="error"
        title="This panel could not be loaded"
        subTitle="Check your connection and try again."
        extra={
          <Button type="primary" onClick={this.retry}>
            Retry
          </Button>
        }
      />
    );
  }
}
