import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { DOCUMENT_UPLOAD_MESSAGES, REFERENCE_MESSAGES } from '@studio/contracts';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { WaiverNewPage } from './waiver-new.page';

const PDF_URL = '/api/media/11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222.pdf';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

/** The page shows its form once the page frame's skeleton delay is over. */
const render = async () => {
  renderWithProviders(
    <MemoryRouter>
      <WaiverNewPage />
    </MemoryRouter>,
  );
  await screen.findByRole('button', { name: 'Save waiver' }, { timeout: 3000 });
};

const pdf = () => new File(['%PDF-1.4\n%%EOF\n'], 'waiver.pdf', { type: 'application/pdf' });

describe('New waiver page', () => {
  it('uploads a PDF as the document and saves the waiver with it, without any text', async () => {
    const calls = mockFetch({
      'POST /api/admin/upload/document': okBody<'/api/admin/upload/document', 'post'>({
        id: 'm1',
        url: PDF_URL,
      }),
      'POST /api/admin/waiver': okBody<'/api/admin/waiver', 'post'>({
        template_id: '33333333-3333-4333-8333-333333333333',
        name: 'Glass waiver',
        body: '',
        document_url: PDF_URL,
        created_at: '2026-03-01T00:00:00Z',
      }),
    });
    await render();
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Glass waiver' } });
    fireEvent.change(screen.getByLabelText('Document (PDF)'), { target: { files: [pdf()] } });
    expect(await screen.findByRole('link', { name: 'waiver.pdf' })).toHaveAttribute('href', PDF_URL);
    expect(await screen.findByText(DOCUMENT_UPLOAD_MESSAGES.uploaded)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save waiver' }));
    expect(await screen.findByText(REFERENCE_MESSAGES.waiverCreated)).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/admin/waiver')?.body).toEqual({
      name: 'Glass waiver',
      body: '',
      document_url: PDF_URL,
    });
  });

  it("shows the server's message when the file is not a PDF, and attaches nothing", async () => {
    mockFetch({ 'POST /api/admin/upload/document': errorBody(415, DOCUMENT_UPLOAD_MESSAGES.type) });
    await render();
    fireEvent.change(screen.getByLabelText('Document (PDF)'), {
      target: { files: [new File(['hi'], 'notes.pdf', { type: 'application/pdf' })] },
    });
    expect(await screen.findByText(DOCUMENT_UPLOAD_MESSAGES.type)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove document' })).not.toBeInTheDocument();
  });

  it('asks for the text or a document when neither is given', async () => {
    const calls = mockFetch({});
    await render();
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Empty waiver' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save waiver' }));
    expect(await screen.findByText(REFERENCE_MESSAGES.waiverBodyRequired)).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0));
  });
});
