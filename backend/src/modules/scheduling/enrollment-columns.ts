export { ENROLLMENT_FILTER_COLUMNS, ENROLLMENT_PAGE_SIZE, ENROLLMENT_SORT_FIELDS } from '@studio/contracts';
export const WAIVER_STATUS_VALUES = ['signed', 'pending', 'expired', 'not_required'] as const;

/** The SQL behind each sort field (a fixed map: user input never reaches the SQL text). */
export const SORT_SQL: Record<string, string> = {
  created_at: 'e.created_at',
  first_name: 's.first_name',
  last_name: 's.last_name',
  email: 's.email',
  guestCount: 'e.guest_count',
  waiverStatus: 'e.waiver_status',
};
