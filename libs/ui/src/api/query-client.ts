import createQueryHooks from 'openapi-react-query';
import { QueryClient } from '@tanstack/react-query';
import { api } from './typed-client';
import { isApiError } from './api-error';

/**
 * TanStack Query hooks over the typed client: `$api.useQuery(method, path, { params })`,
 * `$api.useMutation('put', …)`, `$api.queryOptions(…)`. Keys are `[method, path, init]`, the same
 * whichever package builds them: a remote's key factory and mutation hooks live in that remote
 * (`<remote>/src/api/*.ts`), and its `['get', path]` list key refreshes the shell's page of the same
 * path. `../queries/*.ts` holds only the reads several remotes and the shell share.
 */
export const $api = createQueryHooks(api);

/**
 * The shell's one QueryClient. A client error (4xx) is not retried: asking again changes nothing.
 * Reads and saves are always tried (networkMode 'always'): with the network off, TanStack's default
 * paused them without an error, so a list said "No students yet" instead of the error with Retry
 * (issue 25) and a save waited with no word; now the failure is shown.
 */
export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => !(isApiError(error) && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        networkMode: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
