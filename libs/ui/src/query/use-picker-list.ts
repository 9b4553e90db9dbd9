import { useEffect, useMemo } from 'react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { isApiError } from '../api/api-error';

/**
 * A picker's list (spec 001 §8): a failed load is only logged and the list stays empty, so the
 * drawer still works. A 401 is not this hook's business: the session already signed out.
 */
export function usePickerList<TData, TError, TItem, TKey extends QueryKey>(
  options: UseQueryOptions<TData, TError, TData, TKey>,
  pick: (data: TData) => TItem[],
  what: string,
  enabled = true,
): { items: TItem[]; loading: boolean; failed: boolean } {
  const query = useQuery({ ...options, enabled });
  const { error } = query;
  useEffect(() => {
    if (error && !(isApiError(error) && error.status === 401)) console.error(`Could not load ${what}`, error);
  }, [error, what]);
  const { data } = query;
  // One array per answer: effects that depend on the list run when it changes, not on every render.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const items = useMemo(() => (data ? pick(data) : []), [data]);
  return { items, loading: enabled && query.isLoading, failed: Boolean(error) };
}
