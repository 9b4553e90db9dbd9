import createQueryHooks from 'openapi-react-query';
import { QueryClient } from '@tanstack/react-query';
import { api } from './typed-client';
import { isApiError } from './api-error';

/**
 * TanStack Query hooks over the typed client: `$api.useQuery(method, path, { params })`,
 * `$api.useMutation('put', …)`, `$api.queryOptions(…)`. Keys are `[method, path, init]`; each
 * resource's key factory (…/queries/*.ts) names them.
 */
export const $api = createQueryHooks(api);

/** The shell's one QueryClient. A client error (4xx) is not retried: asking again changes nothing. */
export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => !(isApiError(error) && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
