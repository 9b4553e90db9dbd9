import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result } from 'antd';

interface Props {
  /** Clears the failed load so the next render tries again. */
  onRetry: () => void;
  children: ReactNode;
}

/** A drawer whose remote or code fails shows the failure in its own panel with a retry. */
export class RemoteErrorBoundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Drawer failed to load', error, info.componentStack);
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ error: null });
  };

  override render() {
    if (!this.state.error) return this.props.children;
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
