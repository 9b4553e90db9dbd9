import type { InstructorInput, LocationInput, WaiverInput } from '@studio/contracts';
import {
  apiFetch,
  type InstructorItem,
  type InstructorListResponse,
  type LocationItem,
  type LocationListResponse,
} from '@studio/ui';

export async function fetchLocations(): Promise<LocationItem[]> {
  return (await apiFetch<LocationListResponse>('/api/admin/location')).locations;
}

/** POST a new location, or PUT an existing one. */
export function saveLocation(id: string | null, body: LocationInput): Promise<unknown> {
  return id
    ? apiFetch(`/api/admin/location/${encodeURIComponent(id)}`, { method: 'PUT', body })
    : apiFetch('/api/admin/location', { method: 'POST', body });
}

export async function fetchInstructors(): Promise<InstructorItem[]> {
  return (await apiFetch<InstructorListResponse>('/api/admin/instructor')).instructors;
}

export function saveInstructor(id: string | null, body: InstructorInput): Promise<unknown> {
  return id
    ? apiFetch(`/api/admin/instructor/${encodeURIComponent(id)}`, { method: 'PUT', body })
    : apiFetch('/api/admin/instructor', { method: 'POST', body });
}

export function createWaiver(body: WaiverInput): Promise<unknown> {
  return apiFetch('/api/admin/waiver', { method: 'POST', body });
}
