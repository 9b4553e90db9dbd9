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

describe('sessionLabel', () => {
  it("reads 'Starts MMM D, h:mm A' in the location's zone", () => {
    const label = sessionLabel({
      event_id: 'e1',
      start: '2026-03-14T23:30:00Z',
      Location: { timezone: { timeZoneId: 'America/New_York' } },
    });
    expect(label).toBe('Starts Mar 14, 7:30 PM');
  });

  it('uses UTC when the location has no zone', () => {
    expect(sessionLabel({ event_id: 'e1', start: '2026-03-14T23:30:00Z' })).toBe('Starts Mar 14, 11:30 PM');
  });

  it('prefers the internal short description', () => {
    expect(
      sessionLabel({
        event_id: 'e1',
        start: '2026-03-14T23:30:00Z',
        internal_short_description: 'Evening wheel',
      }),
    ).toBe('Evening wheel');
  });
});
