import type { components } from '@studio/contracts';
import { apiFetch } from '@studio/ui';

type Schemas = components['schemas'];
export type EventTag = Schemas['TagListDto_Output']['tags'][number];
export type CreatedTag = Schemas['TagOutDto_Output'];

export async function fetchAvailableTags(): Promise<EventTag[]> {
  return (await apiFetch<{ tags: EventTag[] }>('/api/admin/events/tags')).tags ?? [];
}

export async function fetchEventTags(eventId: string): Promise<EventTag[]> {
  return (await apiFetch<{ tags: EventTag[] }>(`/api/admin/events/${encodeURIComponent(eventId)}/tags`)).tags ?? [];
}

/** System tag ids are left out by the caller (spec 001 §4). */
export async function saveEventTags(eventId: string, tagIds: string[]): Promise<EventTag[]> {
  const answer = await apiFetch<{ tags: EventTag[] }>(`/api/admin/events/${encodeURIComponent(eventId)}/tags`, {
    method: 'PUT',
    body: { tags: tagIds },
  });
  return answer.tags ?? [];
}

export function createTag(name: string, color: string): Promise<CreatedTag> {
  return apiFetch<CreatedTag>('/api/admin/events/tags', { method: 'POST', body: { name, color } });
}

export function renameTag(tagId: string, name: string, color: string): Promise<CreatedTag> {
  return apiFetch<CreatedTag>(`/api/admin/tags/${encodeURIComponent(tagId)}`, {
    method: 'PUT',
    body: { name, color },
  });
}
