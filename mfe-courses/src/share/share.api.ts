import {
  apiFetch,
  type ActivityListItem,
  type ActivitySession,
  type ActivitySessionsResponse,
  type ProductListItem,
} from '@studio/ui';

type ListAnswer<T, K extends string> = T[] | Partial<Record<K, T[]>>;

function listOf<T, K extends string>(answer: ListAnswer<T, K>, key: K): T[] {
  return Array.isArray(answer) ? answer : (answer[key] ?? []);
}

/** Fetch failures of lists are only logged and the list falls back to empty (spec 001 §8). */
async function orEmpty<T>(what: string, load: () => Promise<T[]>): Promise<T[]> {
  try {
    return await load();
  } catch (error) {
    console.error(`Could not load ${what}`, error);
    return [];
  }
}

export function fetchActivities(): Promise<ActivityListItem[]> {
  return orEmpty('courses', async () =>
    listOf(await apiFetch<ListAnswer<ActivityListItem, 'activities'>>('/api/admin/activities'), 'activities'),
  );
}

export function fetchUpcomingSessions(activityId: string): Promise<ActivitySession[]> {
  return orEmpty('sessions', async () => {
    const answer = await apiFetch<ActivitySessionsResponse>(
      `/api/admin/activities/${encodeURIComponent(activityId)}/sessions?include_past=false&limit=10000`,
    );
    return answer.sessions ?? [];
  });
}

export function fetchProducts(): Promise<ProductListItem[]> {
  return orEmpty('products', async () =>
    listOf(
      await apiFetch<ListAnswer<ProductListItem, 'products'>>('/api/admin/products?limit=10000'),
      'products',
    ),
  );
}
