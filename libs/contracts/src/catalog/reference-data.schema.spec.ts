import { REFERENCE_MESSAGES, waiverSchema } from './reference-data.schema';

const documentError = (document_url: unknown) => {
  const result = waiverSchema.safeParse({ name: 'Waiver', body: '', document_url });
  return result.success ? null : result.error.issues.find((i) => i.path[0] === 'document_url')?.message ?? result.error.issues[0].message;
};

describe('waiver document_url', () => {
  it('takes an https:// link or an upload of this API', () => {
    expect(documentError('https://studio.example.com/waiver.pdf')).toBeNull();
    expect(documentError('/api/media/6f1c2b1e-8a47-4d4f-9d0a-0c8e2f1f3a55/0b6f5a8e-4d1e-4c43-8c6b-3a9a7f1e2d10.png')).toBeNull();
  });

  it.each([
    ['http://studio.example.com/waiver.pdf'],
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['//evil.example/waiver.pdf'],
    ['/admin/courses'],
    ['/api/media/../../etc/passwd'],
    ['https://user:secret@studio.example.com/waiver.pdf'],
    ['ftp://studio.example.com/waiver.pdf'],
  ])('refuses %s with a clear message', (url) => {
    expect(documentError(url)).toBe(REFERENCE_MESSAGES.documentUrl);
  });
});
