/**
 * THE check-in write (issue 23), the same for a session's seat and an appointment: checking in again
 * keeps the first time and admin; undoing clears both. The SET list of an UPDATE and its parameters;
 * `alias` names the updated table when the statement joins another.
 */
export function checkInAssignments(checkedIn: boolean, userId: string, alias = ''): { sql: string; params: unknown[] } {
  const c = alias ? `${alias}.` : '';
  return checkedIn
    ? {
        sql: `checked_in_by = case when ${c}checked_in_at is null then ? else ${c}checked_in_by end,
              checked_in_at = coalesce(${c}checked_in_at, now())`,
        params: [userId],
      }
    : { sql: 'checked_in_at = null, checked_in_by = null', params: [] };
}
