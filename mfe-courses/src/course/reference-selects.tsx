import { useEffect, useRef } from 'react';
import { ADD_WAIVER_PATH, WAIVER_CREATED_CHANNEL } from '@studio/contracts';
import {
  Flex,
  Select,
  instructorQueries,
  useQueryClient,
  locationQueries,
  usePickerList,
  type InstructorItem,
  type LocationItem,
  type WaiverItem,
} from '@studio/ui';
import { waiverKeys, waiverQueries } from '../api/waivers';

interface PickerProps {
  id: string;
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  status?: 'error';
}

/* Pickers: a failed load is only logged and the list stays empty (spec 001 §8). */

export function LocationSelect({ id, value, onChange, status }: PickerProps) {
  const { items, loading } = usePickerList(locationQueries.list(), (a) => a.locations, 'locations');
  return (
    <Select<string>
      id={id}
      aria-label="Location"
      status={status}
      loading={loading}
      value={value ?? undefined}
      onChange={(next) => onChange(next ?? null)}
      placeholder="Select a location"
      notFoundContent="No locations yet: add one under Settings, Locations"
      options={items.map((l: LocationItem) => ({
        value: l.location_id,
        label: l.name ? `${l.name}, ${l.address}` : l.address,
      }))}
    />
  );
}

export function InstructorSelect({ id, value, onChange, status }: PickerProps) {
  const { items, loading } = usePickerList(instructorQueries.list(), (a) => a.instructors, 'instructors');
  return (
    <Select<string>
      id={id}
      aria-label="Instructor"
      status={status}
      loading={loading}
      value={value ?? undefined}
      onChange={(next) => onChange(next ?? null)}
      placeholder="Select an instructor"
      notFoundContent="No instructors yet: add one under Settings, Instructors"
      options={items.map((i: InstructorItem) => ({
        value: i.instructor_id,
        label: [i.first_name, i.last_name].filter(Boolean).join(' '),
      }))}
    />
  );
}

/** Intake waiver picker with the link for adding waivers (spec 000 §2). */
export function WaiverPicker({ id, value, onChange, status }: PickerProps) {
  const { items, loading } = usePickerList(waiverQueries.list(), (a) => a.waivers, 'waivers');
  // "Add a waiver" opens the waiver form in a new tab, so the half-filled course form stays. The list
  // reads again when this window gets the focus back, and a waiver created from the link is selected
  // when none was chosen yet.
  const queryClient = useQueryClient();
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };
  useEffect(() => {
    const reload = () => void queryClient.invalidateQueries({ queryKey: waiverKeys.lists() });
    window.addEventListener('focus', reload);
    const channel =
      typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(WAIVER_CREATED_CHANNEL);
    if (channel) {
      channel.onmessage = (event: MessageEvent<{ template_id?: string }>) => {
        reload();
        const created = event.data?.template_id;
        if (created && !latest.current.value) latest.current.onChange(created);
      };
    }
    return () => {
      window.removeEventListener('focus', reload);
      channel?.close();
    };
  }, [queryClient]);
  return (
    <Flex vertical gap={4}>
      <Select<string>
        id={id}
        aria-label="Waiver"
        status={status}
        loading={loading}
        allowClear
        value={value ?? undefined}
        onChange={(next) => onChange(next ?? null)}
        placeholder="No waiver"
        options={items.map((w: WaiverItem) => ({ value: w.template_id, label: w.name }))}
      />
      <a href={ADD_WAIVER_PATH} target="_blank" rel="noopener">
        Add a waiver
      </a>
    </Flex>
  );
}
