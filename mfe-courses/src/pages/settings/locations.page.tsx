import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { REFERENCE_MESSAGES, locationSchema, type LocationInput } from '@studio/contracts';
import {
  busy,
  App,
  Button,
  Card,
  Flex,
  Form,
  FormField,
  Input,
  Select,
  Table,
  Tag,
  useOrganizationTimezone,
  zodResolver,
  QueryFailure,
  locationQueries,
  useQuery,
  type LocationItem,
  PageFrame,
  LabeledSwitch,
} from '@studio/ui';
import { useSaveLocation } from './reference.api';
import type { LocationBody } from './reference.api';
import { timeZoneOptions } from './time-zones';

/** /admin/settings/locations: the studio's locations, with their time zones, added and edited here. */
export function LocationsPage() {
  const { message } = App.useApp();
  const zone = useOrganizationTimezone();
  const [editing, setEditing] = useState<string | null>(null);
  const zones = useMemo(timeZoneOptions, []);
  const empty = useMemo(() => ({ name: '', address: '', timezone: zone, online: false }), [zone]);
  const form = useForm<LocationInput, unknown, LocationBody>({
    resolver: zodResolver(locationSchema),
    defaultValues: empty,
  });
  const { control, reset, formState } = form;

  const save = useSaveLocation();
  // The page's main data: a failure shows an error with Retry, never "No locations yet".
  const query = useQuery(locationQueries.list());
  const locations = query.data?.locations ?? [];

  const startEdit = (location: LocationItem | null) => {
    setEditing(location?.location_id ?? null);
    reset(
      location
        ? {
            name: location.name,
            address: location.address,
            timezone: location.timezone,
            online: location.online,
          }
        : empty,
    );
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: editing, body: values });
      message.success(REFERENCE_MESSAGES.locationCreated);
      startEdit(null);
    } catch (error) {
      console.error('Saving the location failed', error);
      message.error(REFERENCE_MESSAGES.saveFailed);
    }
  });

  return (
    <PageFrame title="Locations">
      <Flex vertical gap={16}>
        <QueryFailure query={query} title="Could not load the locations" />
        <Table<LocationItem>
          loading={query.isLoading}
          rowKey="location_id"
          dataSource={locations}
          pagination={false}
          locale={{ emptyText: 'No locations yet' }}
          columns={[
            { key: 'name', title: 'Name', dataIndex: 'name' },
            { key: 'address', title: 'Address', dataIndex: 'address' },
            { key: 'timezone', title: 'Time zone', dataIndex: 'timezone' },
            {
              key: 'online',
              title: 'Online',
              render: (_, l) => (l.online ? <Tag color="blue">Online</Tag> : null),
            },
            {
              key: 'edit',
              title: '',
              render: (_, l) => (
                <Button size="small" aria-label={`Edit ${l.address}`} onClick={() => startEdit(l)}>
                  Edit
                </Button>
              ),
            },
          ]}
        />
        <Card size="small" title={editing ? 'Edit location' : 'Add a location'}>
          <form onSubmit={onSubmit} aria-label="Location" noValidate>
            <Form layout="vertical" component={false}>
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
              <Flex gap={8}>
                <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
                  {editing ? 'Save location' : 'Add location'}
                </Button>
                {editing ? <Button onClick={() => startEdit(null)}>Cancel</Button> : null}
              </Flex>
            </Form>
          </form>
        </Card>
      </Flex>
    </PageFrame>
  );
}
