/** PLACEHOLDER until the loyalty module is merged: replaced by GET /api/admin/loyalty-program. */
export function useLoyaltyProgram(): { active: boolean; loading: boolean } {
  return { active: false, loading: false };
}
