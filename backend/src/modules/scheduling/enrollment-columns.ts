export { ENROLLMENT_FILTER_COLUMNS, ENROLLMENT_PAGE_SIZE, ENROLLMENT_SORT_FIELDS } from '@studio/contracts';
export const WAIVER_STATUS_VALUES = ['signed', 'pending', 'expired', 'not_required'] as const;

/**
 * The SQL ORDER BY of each sort field (a fixed map: user input never reaches the SQL text). Each ends
 * with a unique tie-breaker that matches an index, so a page is read off the index, not a sort of
 * the whole session.
 */
export const SORT_SQL: Record<string, (dir: 'asc' | 'desc') => string> = {
  created_at: (d) => `e.created_at ${d}, e.id ${d}`,
  first_name: (d) => `s.first_name ${d}, s.last_name ${d}, s.id ${d}`,
  last_name: (d) => `s.last_name ${d}, s.first_name ${d}, s.id ${d}`,
  email: (d) => `s.email ${d}`,
  guestCount: (d) => `e.guest_count ${d}, e.created_at ${d}, e.id ${d}`,
  waiverStatus: (d) => `e.waiver_status ${d}, e.created_at ${d}, e.id ${d}`,
  // Not checked in last when ascending (first checked in first), first when descending.
  checked_in_at: (d) => `e.checked_in_at ${d} nulls ${d === 'asc' ? 'last' : 'first'}, e.created_at ${d}, e.id ${d}`,
};
