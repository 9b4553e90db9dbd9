import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { REFERENCE_MESSAGES, locationSchema, type LocationInput } from '@studio/contracts';
import {
  FormField,
  Input,
  Select,
  Tag,
  useOrganizationTimezone,
  zodResolver,
  locationQueries,
  useQuery,
  type LocationItem,
  LabeledSwitch,
} from '@studio/ui';
import { useSaveLocation } from './reference.api';
import type { LocationBody } from './reference.api';
import { ReferenceListPage, useReferenceEditor } from './reference-list-page';
import { timeZoneOptions } from './time-zones';

/** /admin/settings/locations: the studio's locations, with their time zones, added and edited here. */
export function LocationsPage() {
  const zone = useOrganizationTimezone();
  const zones = useMemo(timeZoneOptions, []);
  const empty = useMemo(() => ({ name: '', address: '', timezone: zone, online: false }), [zone]);
  const form = useForm<LocationInput, unknown, LocationBody>({
    resolver: zodResolver(locationSchema),
    defaultValues: empty,
  });
  const { control } = form;
  const editor = useReferenceEditor({
    form,
    empty,
    idOf: (location: LocationItem) => location.location_id,
    toInput: (location) => ({
      name: location.name,
      address: location.address,
      timezone: location.timezone,
      online: location.online,
    }),
    save: useSaveLocation(),
    saved: REFERENCE_MESSAGES.locationCreated,
    what: 'the location',
  });

  const query = useQuery(locationQueries.list());

  return (
    <ReferenceListPage<LocationItem>
      texts={{
        title: 'Locations',
        loadFailed: 'Could not load the locations',
        empty: 'No locations yet',
        form: 'Location',
        addTitle: 'Add a location',
        editTitle: 'Edit location',
        add: 'Add location',
        save: 'Save location',
      }}
      query={query}
      rows={query.data?.locations ?? []}
      rowKey="location_id"
      columns={[
        { key: 'name', title: 'Name', dataIndex: 'name' },
        { key: 'address', title: 'Address', dataIndex: 'address' },
        { key: 'timezone', title: 'Time zone', dataIndex: 'timezone' },
        {
          key: 'online',
          title: 'Online',
          render: (_, l) => (l.online ? <Tag color="blue">Online</Tag> : null),
        },
      ]}
      editLabel={(l) => `Edit ${l.address}`}
      editor={editor}
    >
      <FormField control={control} name="name" label="Name">
        {(field) => <Input {...field} id="name" />}
      </FormField>
      <FormField control={control} name="address" label="Address" required>
        {(field) => <Input {...field} id="address" />}
      </FormField>
      <FormField control={control} name="timezone" label="Time zone" required>
        {(field) => (
          <Select
            id="timezone"
            aria-label="Time zone"
            showSearch
            value={field.value}
            onChange={field.onChange}
            options={zones}
          />
        )}
      </FormField>
      <FormField
        control={control}
        name="online"
        extra="Sessions here get a Zoom meeting, with its join link on the session, when Zoom is connected."
      >
        {(field) => (
          <LabeledSwitch
            label="Classes here happen online"
            id="online"
            checked={Boolean(field.value)}
            onChange={(on) => field.onChange(on)}
          />
        )}
      </FormField>
    </ReferenceListPage>
  );
}
