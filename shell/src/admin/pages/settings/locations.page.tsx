import { useCallback, useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { REFERENCE_MESSAGES, locationSchema, type LocationInput } from '@studio/contracts';
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  FormField,
  Input,
  Select,
  Table,
  useOrganizationTimezone,
  zodResolver,
  type LocationItem,
} from '@studio/ui';
import { PageFrame } from '../page-frame';
import { fetchLocations, saveLocation } from './reference.api';
import { timeZoneOptions } from './time-zones';

/** /admin/settings/locations: the studio's locations, with their time zones, added and edited here. */
export function LocationsPage() {
  const { message } = App.useApp();
  const zone = useOrganizationTimezone();
  const [locations, setLocations] = useState<LocationItem[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const zones = useMemo(timeZoneOptions, []);
  const empty = useMemo(() => ({ name: '', address: '', timezone: zone }), [zone]);
  const form = useForm<LocationInput>({ resolver: zodResolver(locationSchema), defaultValues: empty });
  const { control, reset, formState } = form;

  const reload = useCallback(() => {
    fetchLocations()
      .then(setLocations)
      .catch((error: unknown) => console.error('Could not load the locations', error));
  }, []);
  useEffect(reload, [reload]);

  const startEdit = (location: LocationItem | null) => {
    setEditing(location?.location_id ?? null);
    reset(location ? { name: location.name, address: location.address, timezone: location.timezone } : empty);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await saveLocation(editing, values);
      message.success(REFERENCE_MESSAGES.locationCreated);
      startEdit(null);
      reload();
    } catch (error) {
      console.error('Saving the location failed', error);
      message.error(REFERENCE_MESSAGES.saveFailed);
    }
  });

  return (
    <PageFrame title="Locations">
      <Flex vertical gap={16}>
        <Table<LocationItem>
          rowKey="location_id"
          dataSource={locations}
          pagination={false}
          locale={{ emptyText: 'No locations yet' }}
          columns={[
            { key: 'name', title: 'Name', dataIndex: 'name' },
            { key: 'address', title: 'Address', dataIndex: 'address' },
            { key: 'timezone', title: 'Time zone', dataIndex: 'timezone' },
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
              <Flex gap={8}>
                <Button type="primary" htmlType="submit" loading={formState.isSubmitting}>
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
