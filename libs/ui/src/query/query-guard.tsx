import type { ReactNode } from 'react';
import { LoadingSkeleton } from '../drawer/loading-skeleton';
import { QueryError } from './query-error';

/** What the guard reads of a query (a TanStack or openapi-react-query result, whatever its error type). */
export interface QueryState {
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}
export interface GuardedQuery<TData> extends QueryState {
  data: TData | undefined;
}

interface QueryFailureProps {
  query: QueryState;
  /** What could not be loaded, e.g. "Could not load the orders". */
  title: string;
}

/**
 * A list page's banner: nothing while the query is fine, the error with Retry when it failed (the
 * table below keeps its own loading state).
 */
export function QueryFailure({ query, title }: QueryFailureProps) {
  if (!query.isError) return null;
  return <QueryError title={title} error={query.error} onRetry={query.refetch} retrying={query.isFetching} />;
}

interface QueryGuardProps<TData> {
  query: GuardedQuery<TData>;
  /** The error's title, e.g. "Could not load this student". */
  title: string;
  /** The content, given the loaded data. */
  children: (data: TData) => ReactNode;
  /** Still wait (the skeleton delay, a fresh read not yet back, another load), even with data. */
  pending?: boolean;
  /** What shows while loading (default: the loading skeleton). */
  loading?: ReactNode;
  /** A failed reload keeps the data on screen; only a failed first load shows the error. */
  keepDataOnError?: boolean;
  /** An error shown otherwise than with Retry (e.g. a 404's "not found"); undefined falls back to Retry. */
  renderError?: (error: unknown) => ReactNode | undefined;
}

/**
 * One screen's main data, guarded (spec 000 §9): the error with Retry when the load failed, the
 * skeleton while loading, then the content. Never "No data" for a failure.
 */
export function QueryGuard<TData>({
  query,
  title,
  children,
  pending = false,
  loading,
  keepDataOnError = false,
  renderError,
}: QueryGuardProps<TData>) {
  const { data } = query;
  if (query.isError && !(keepDataOnError && data !== undefined)) {
    const custom = renderError?.(query.error);
    if (custom !== undefined) return <>{custom}</>;
    return <QueryFailure query={query} title={title} />;
  }
  if (data === undefined || pending) return <>{loading ?? <LoadingSkeleton />}</>;
  return <>{children(data)}</>;
}
