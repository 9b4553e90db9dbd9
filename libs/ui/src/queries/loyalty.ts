import type { QueryClient } from '@tanstack/react-query';
import { $api } from '../api/query-client';

/* Shared: the organization's loyalty programme (spec 000 §3, §9), read by the shell's Loyalty page and the orders remote's product drawer. */
const PROGRAM = '/api/admin/loyalty-program';

export const loyaltyQueries = { program: () => $api.queryOptions('get', PROGRAM) };
export const loyaltyKeys = { program: () => ['get', PROGRAM] as const };

/** After the programme is turned on or off, everything that reads it reads again. */
export function invalidateLoyaltyProgram(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: loyaltyKeys.program() });
}
