import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  okBody,
  renderWithProviders,
  type MockAnswer,
  type OkBodyOf,
} from '@studio/ui/testing';
import { SCHEDULING_MESSAGES, SYSTEM_TAGS, TAG_UPDATE_DEBOUNCE_MS } from '@studio/contracts';
import { EventTags } from './event-tags';
import { EVENT_ID } from './event-fixtures';

type Tag = OkBodyOf<'/api/admin/events/tags', 'get'>['tags'][number];

const FEATURED: Tag = { ...SYSTEM_TAGS.featured, system: true };
const KIDS: Tag = { tag_id: 't-kids', name: 'Kids', color: '#2f9e44', icon: null, system: false };
const ADULTS: Tag = { tag_id: 't-adults', name: 'Adults', color: '#1098ad', icon: null, system: false };

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function routes(put: MockAnswer) {
  return mockFetch({
    'GET /api/admin/events/tags': okBody<'/api/admin/events/tags', 'get'>({ tags: [FEATURED, KIDS, ADULTS] }),
    [`GET /api/admin/events/${EVENT_ID}/tags`]: okBody<'/api/admin/events/{event_id}/tags', 'get'>({
      tags: [FEATURED, KIDS],
    }),
    [`PUT /api/admin/events/${EVENT_ID}/tags`]: put,
  });
}

describe('EventTags', () => {
  it('shows system tags without remove or rename, and saves custom tags once, 50 ms after the last change', async () => {
    const calls = routes(okBody<'/api/admin/events/{event_id}/tags', 'put'>({ tags: [FEATURED] }));
    renderWithProviders(<EventTags eventId={EVENT_ID} />);
    await screen.findByText('Kids');
    expect(screen.getByText('Featured')).toBeInTheDocument();
    expect(screen.queryByLabelText('Remove tag Featured')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Rename tag Featured')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Remove tag Kids')).toBeInTheDocument();

    jest.useFakeTimers();
    try {
      fireEvent.click(screen.getByLabelText('Remove tag Kids'));
      // Async act: the typed client's middleware runs in microtasks before fetch is called.
      await act(async () => {
        jest.advanceTimersByTime(TAG_UPDATE_DEBOUNCE_MS - 10);
      });
      expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
      await act(async () => {
        jest.advanceTimersByTime(10);
      });
      expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
    const put = calls.find((c) => c.method === 'PUT');
    // System tags are never sent (spec 001 §4).
    expect(put?.body).toEqual({ tags: [] });
    expect(await screen.findByText(SCHEDULING_MESSAGES.tagsUpdated)).toBeInTheDocument();
  });

  it("says 'Failed to update tags' and reloads the event's tags when the save fails", async () => {
    const calls = routes(errorBody(500, 'boom'));
    renderWithProviders(<EventTags eventId={EVENT_ID} />);
    await screen.findByText('Kids');
    fireEvent.click(screen.getByLabelText('Remove tag Kids'));
    await waitFor(() => expect(screen.queryByText('Kids')).not.toBeInTheDocument());
    expect(await screen.findByText(SCHEDULING_MESSAGES.tagsUpdateFailed)).toBeInTheDocument();
    // Reloaded: Kids is back and the event's tags were read a second time.
    expect(await screen.findByText('Kids')).toBeInTheDocument();
    expect(
      calls.filter((c) => c.method === 'GET' && c.url.endsWith(`/events/${EVENT_ID}/tags`)),
    ).toHaveLength(2);
  });
});
