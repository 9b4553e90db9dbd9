import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  REFERENCE_MESSAGES,
  WAIVER_CREATED_CHANNEL,
  waiverSchema,
  type WaiverInput,
} from '@studio/contracts';
import { busy, App, Button, Flex, Form, FormField, Input, zodResolver } from '@studio/ui';
import { PageFrame } from '../page-frame';
import { createWaiver } from './reference.api';
import type { WaiverBody } from './reference.api';

/** /admin/waivers/new: a waiver template (name and text); after saving, back where the admin came from. */
export function WaiverNewPage() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  // Opened by a course drawer's "Add a waiver" link in a new tab: close it again after saving.
  const inNewTab = useSearchParams()[0].get('then') === 'close';
  const form = useForm<WaiverInput, unknown, WaiverBody>({
    resolver: zodResolver(waiverSchema),
    defaultValues: { name: '', body: '', document_url: null },
  });
  const { control, formState } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const created = await createWaiver(values);
      message.success(REFERENCE_MESSAGES.waiverCreated);
      // The course form in the other tab reloads its waivers and selects this one.
      if (typeof BroadcastChannel !== 'undefined') {
        const channel = new BroadcastChannel(WAIVER_CREATED_CHANNEL);
        channel.postMessage({ template_id: created.template_id });
        channel.close();
      }
      if (inNewTab) {
        window.close();
        // A browser that keeps the tab open shows the courses.
        navigate('/admin/courses', { replace: true });
      } else if (window.history.length > 1) navigate(-1);
      else navigate('/admin/courses');
    } catch (error) {
      console.error('Saving the waiver failed', error);
      message.error(REFERENCE_MESSAGES.saveFailed);
    }
  });

  return (
    <PageFrame title="New waiver">
      <form onSubmit={onSubmit} aria-label="New waiver" noValidate>
        <Form layout="vertical" component={false}>
          <FormField control={control} name="name" label="Name" required>
            {(field) => <Input {...field} id="name" />}
          </FormField>
          <FormField control={control} name="body" label="Waiver text" required>
            {(field) => <Input.TextArea {...field} id="body" rows={10} />}
          </FormField>
          <Flex gap={8}>
            <Button onClick={() => navigate(-1)}>Cancel</Button>
            <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
              Save waiver
            </Button>
          </Flex>
        </Form>
      </form>
    </PageFrame>
  );
}
