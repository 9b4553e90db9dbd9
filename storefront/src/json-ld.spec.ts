import { courseEvents, scriptJson } from './json-ld';
import { course, session } from './testing/fixtures';

const context = {
  pageUrl: 'https://app.example.test/s/demo-studio/activity/x',
  origin: 'https://app.example.test',
  base: '/s/demo-studio',
};

describe('the course page JSON-LD', () => {
  it('is one schema.org Event per session with its place, times and an Offer', () => {
    const events = courseEvents(
      course({
        sessions: [
          session(),
          session({
            event_id: 'b1b2c3d4-0000-4000-8000-000000000002',
            seats_left: 0,
            sold_out: true,
            price_cents: 5000,
          }),
        ],
      }),
      context,
    );
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Intro to Wheel Throwing',
      startDate: '2026-12-01T23:00:00.000Z',
      endDate: '2026-12-02T01:00:00.000Z',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'Main studio', address: '12 Kiln Street, Brooklyn, NY' },
      image: [
        'https://app.example.test/api/media/wheel-1.png',
        'https://app.example.test/api/media/wheel-2.png',
      ],
      offers: {
        '@type': 'Offer',
        price: '65.00',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        url: 'https://app.example.test/s/demo-studio/checkout?event_id=9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
      },
    });
    expect(events[1].offers).toMatchObject({ price: '50.00', availability: 'https://schema.org/SoldOut' });
  });

  it('places an online session at a VirtualLocation', () => {
    const [event] = courseEvents(
      course({
        location: { name: 'Zoom', address: '', timezone: 'America/New_York', online: true },
        sessions: [session({ online: true, location_name: 'Zoom' })],
      }),
      context,
    );
    expect(event.eventAttendanceMode).toBe('https://schema.org/OnlineEventAttendanceMode');
    expect(event.location).toEqual({ '@type': 'VirtualLocation', url: context.pageUrl });
  });

  it('is written so nothing in it can close its script element', () => {
    const text = scriptJson({ name: '</script><script>alert(1)</script> & <!--' });
    expect(text).not.toMatch(/[<>&]/);
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script> & <!--' });
  });
});
