import { useForm } from 'react-hook-form';
import {
  DOCUMENT_UPLOAD_MESSAGES,
  MAX_DOCUMENT_BYTES,
  REFERENCE_MESSAGES,
  WAIVER_CREATED_CHANNEL,
  waiverSchema,
  type WaiverInput,
} from '@studio/contracts';
import { useState } from 'react';
import {
  busy,
  App,
  Button,
  Flex,
  Form,
  FormField,
  Input,
  Typography,
  serverMessage,
  zodResolver,
  PageFrame,
  useNavigate,
  useQueryClient,
  useSearchParams,
} from '@studio/ui';
import { createWaiver, uploadDocument } from './reference.api';
import { waiverKeys } from '../../api/waivers';
import type { WaiverBody } from './reference.api';

/**
 * /admin/waivers/new: a waiver template whose document is the text typed here or an uploaded PDF
 * (or both); after saving, back where the admin came from.
 */
export function WaiverNewPage() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Opened by a course drawer's "Add a waiver" link in a new tab: close it again after saving.
  const inNewTab = useSearchParams()[0].get('then') === 'close';
  const form = useForm<WaiverInput, unknown, WaiverBody>({
    resolver: zodResolver(waiverSchema),
    defaultValues: { name: '', body: '', document_url: null },
  });
  const { control, formState } = form;
  const [attached, setAttached] = useState<{ name: string; url: string } | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const onFile = async (file: File | undefined) => {
    setUploadError(null);
    if (!file) return;
    // The server judges the bytes; these checks only spare a pointless upload.
    if (file.size > MAX_DOCUMENT_BYTES) return setUploadError(DOCUMENT_UPLOAD_MESSAGES.size);
    setUploading(true);
    try {
      const uploaded = await uploadDocument(file);
      setAttached({ name: file.name, url: uploaded.url });
      form.setValue('document_url', uploaded.url, { shouldValidate: formState.isSubmitted });
      message.success(DOCUMENT_UPLOAD_MESSAGES.uploaded);
    } catch (error) {
      console.error('Uploading the waiver document failed', error);
      setUploadError(serverMessage(error, DOCUMENT_UPLOAD_MESSAGES.failed));
    } finally {
      setUploading(false);
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const created = await createWaiver(values);
      message.success(REFERENCE_MESSAGES.waiverCreated);
      // Settings → Waivers and the pickers of this tab show it at once (issue 25: only after a reload).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/submission/summary'] }),
        queryClient.invalidateQueries({ queryKey: waiverKeys.lists() }),
      ]);
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
          <FormField control={control} name="body" label="Waiver text">
            {(field) => <Input.TextArea {...field} id="body" rows={10} />}
          </FormField>
          <Form.Item
            label="Document (PDF)"
            htmlFor="waiver-document"
            validateStatus={uploadError ? 'error' : undefined}
            help={uploadError ?? 'Write the waiver text above, attach its PDF, or both.'}
          >
            {attached ? (
              <Flex gap={8} align="center">
                <a href={attached.url} target="_blank" rel="noopener noreferrer">
                  {attached.name}
                </a>
                <Button
                  size="small"
                  onClick={() => {
                    setAttached(null);
                    form.setValue('document_url', null);
                  }}
                >
                  Remove document
                </Button>
              </Flex>
            ) : (
              <Flex gap={8} align="center">
                <input
                  id="waiver-document"
                  type="file"
                  accept="application/pdf,.pdf"
                  disabled={uploading}
                  onChange={(e) => {
                    void onFile(e.target.files?.[0]);
                    e.target.value = '';
                  }}
                />
                {uploading && <Typography.Text type="secondary">Uploading…</Typography.Text>}
              </Flex>
            )}
          </Form.Item>
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
