import type { CourseSession } from '@studio/ui';
import { sessionLabel, shareLink } from './share-link';

describe('shareLink', () => {
  const host = 'https://shop.demo.studio/';
  it.each([
    [{ kind: 'activity', id: 'c1' }, false, 'https://shop.demo.studio/activity/c1'],
    [{ kind: 'activity', id: 'c1' }, true, 'https://shop.demo.studio/activity/c1?openModal=true'],
    [{ kind: 'event', id: 'e1' }, false, 'https://shop.demo.studio/checkout?event_id=e1'],
    [{ kind: 'event', id: 'e1' }, true, 'https://shop.demo.studio/checkout?event_id=e1&openModal=true'],
    [{ kind: 'product', id: 'p1' }, false, 'https://shop.demo.studio/checkout?product_id=p1'],
    [{ kind: 'product', id: 'p1' }, true, 'https://shop.demo.studio/checkout?product_id=p1&openModal=true'],
  ] as const)('%o overlay=%s -> %s', (target, overlay, expected) => {
    expect(shareLink(host, target, overlay)).toBe(expected);
  });
});

/** A session as GET /api/admin/activities/{id}/sessions answers it. */
function session(overrides: Partial<CourseSession> = {}): CourseSession {
  return {
    event_id: 'e1',
    name: 'Wheel throwing',
    start: '2026-03-14T23:30:00Z',
    end: '2026-03-15T01:30:00Z',
    internal_short_description: null,
    capacity: 8,
    enrolled: 0,
    price: 4500,
    badge: 'Open',
    Location: { address: '1 Main St', timezone: { timeZoneId: 'America/New_York' } },
    schedule: [{ start_date: '2026-03-14', start_time: '19:30', duration: 120 }],
    ...overrides,
  };
}

describe('sessionLabel', () => {
  it("reads 'Starts MMM D, h:mm A' in the location's zone", () => {
    expect(sessionLabel(session())).toBe('Starts Mar 14, 7:30 PM');
  });

  it('uses UTC when the location has no zone', () => {
    expect(sessionLabel(session({ Location: { address: '1 Main St', timezone: { timeZoneId: '' } } }))).toBe(
      'Starts Mar 14, 11:30 PM',
    );
  });

  it('prefers the internal short description', () => {
    expect(sessionLabel(session({ internal_short_description: 'Evening wheel' }))).toBe('Evening wheel');
  });
});
