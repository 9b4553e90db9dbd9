import { useEffect } from 'react';
import { loyaltyQueries, useQuery } from '@studio/ui';

/**
 * Whether the organization's loyalty programme is active (GET /api/admin/loyalty-program), for the
 * product form's points rule. A failed read is only logged and counts as not active: the form then
 * refuses points, and the API decides anyway.
 */
export function useLoyaltyProgram(): { active: boolean; loading: boolean } {
  const query = useQuery(loyaltyQueries.program());
  useEffect(() => {
    if (query.error) console.error('Could not load the loyalty program', query.error);
  }, [query.error]);
  return { active: query.data?.status === 'active', loading: query.isLoading };
}
