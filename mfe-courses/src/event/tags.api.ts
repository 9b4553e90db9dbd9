import type { components } from '@studio/contracts';
import { answer, api } from '@studio/ui';

type Schemas = components['schemas'];
export type EventTag = Schemas['TagListDto_Output']['tags'][number];
export type CreatedTag = Schemas['TagOutDto_Output'];

const byEvent = (event_id: string) => ({ params: { path: { event_id } } });

export async function fetchAvailableTags(): Promise<EventTag[]> {
  return (await answer(api.GET('/api/admin/events/tags'))).tags;
}

export async function fetchEventTags(eventId: string): Promise<EventTag[]> {
  return (await answer(api.GET('/api/admin/events/{event_id}/tags', byEvent(eventId)))).tags;
}

/** System tag ids are left out by the caller (spec 001 §4). */
export async function saveEventTags(eventId: string, tagIds: string[]): Promise<EventTag[]> {
  return (
    await answer(
      api.PUT('/api/admin/events/{event_id}/tags', { ...byEvent(eventId), body: { tags: tagIds } }),
    )
  ).tags;
}

export function createTag(name: string, color: string): Promise<CreatedTag> {
  return answer(api.POST('/api/admin/events/tags', { body: { name, color } }));
}

export function renameTag(tagId: string, name: string, color: string): Promise<CreatedTag> {
  return answer(
    api.PUT('/api/admin/tags/{tag_id}', { params: { path: { tag_id: tagId } }, body: { name, color } }),
  );
}
