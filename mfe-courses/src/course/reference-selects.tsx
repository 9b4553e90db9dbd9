import { Flex, Select, useList, type InstructorItem, type LocationItem, type WaiverItem } from '@studio/ui';
import {
  INSTRUCTORS_PATH,
  LOCATIONS_PATH,
  WAIVERS_PATH,
  pickInstructors,
  pickLocations,
  pickWaivers,
} from './course.api';

interface PickerProps {
  id: string;
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  status?: 'error';
}

export function LocationSelect({ id, value, onChange, status }: PickerProps) {
  const { items, loading } = useList(LOCATIONS_PATH, pickLocations);
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
  const { items, loading } = useList(INSTRUCTORS_PATH, pickInstructors);
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
  const { items, loading } = useList(WAIVERS_PATH, pickWaivers);
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
      <a href="/admin/waivers/new">Add a waiver</a>
    </Flex>
  );
}
