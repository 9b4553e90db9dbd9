import { $api, answer, api, useMutation, useQueryClient, type QueryClient } from '@studio/ui';

interface StudentName {
  first_name: string;
  last_name: string;
}

/*
 * Students as this remote's drawer reads and changes them (Medusa dashboard `hooks/api/*.tsx`): a
 * query-key factory and mutation hooks that refresh their own lists and detail. The keys are
 * openapi-react-query's `[method, path, init]`, so `lists()` also covers the shell's Students page.
 */
const LIST = '/api/admin/student';
const DETAIL = '/api/admin/student/{student_id}';

const byId = (student_id: string) => ({ params: { path: { student_id } } });

export const studentKeys = {
  lists: () => ['get', LIST] as const,
  detail: (id: string) => ['get', DETAIL, byId(id)] as const,
};

export const studentQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, byId(id)),
};

function refreshStudent(queryClient: QueryClient, id: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: studentKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: studentKeys.detail(id) }),
  ]);
}

/**
 * PUT /api/admin/student/{student_id} with the new name: the drawer's title shows it at once, then
 * the lists and the detail read again.
 */
export function useUpdateStudentName(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: StudentName) => answer(api.PUT(DETAIL, { ...byId(id), body: name })),
    onSuccess: (_answer, name) => {
      queryClient.setQueryData(studentQueries.detail(id).queryKey, (old) =>
        old ? { ...old, ...name } : old,
      );
      void refreshStudent(queryClient, id);
    },
  });
}

/** POST /api/admin/student/{student_id}/loyalty-balance/set: the drawer's points read again. */
export function useSetLoyaltyBalance(id: string) {
  const queryClient = useQueryClient();
  return $api.useMutation('post', '/api/admin/student/{student_id}/loyalty-balance/set', {
    onSuccess: () => void refreshStudent(queryClient, id),
  });
}

const WALLET = '/api/admin/student/{student_id}/wallet';

/** GET /api/admin/student/{student_id}/wallet: the student's holdings and the newest ledger rows (issue 24). */
export const walletQueries = {
  detail: (id: string) => $api.queryOptions('get', WALLET, byId(id)),
};

/** POST …/wallet/{holding_id}/adjust: answers the wallet, which the drawer shows at once. */
export function useAdjustWallet(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ holdingId, amount, reason }: { holdingId: string; amount: number; reason: string }) =>
      answer(
        api.POST('/api/admin/student/{student_id}/wallet/{holding_id}/adjust', {
          params: { path: { student_id: id, holding_id: holdingId } },
          body: { amount, reason },
        }),
      ),
    onSuccess: (wallet) => queryClient.setQueryData(walletQueries.detail(id).queryKey, wallet),
  });
}
