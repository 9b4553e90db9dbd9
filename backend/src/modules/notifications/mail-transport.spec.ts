import { outboxFileName } from './mail-transport';

describe('outboxFileName', () => {
  it('names a file by the UTC time of writing, so the outbox lists oldest first', () => {
    expect(outboxFileName(new Date('2026-11-22T09:05:03.007Z'), 'abcd1234')).toBe('20261122-090503-007-abcd1234.eml');
    const times = ['2026-11-22T09:05:03.007Z', '2026-11-22T09:05:03.010Z', '2026-11-22T10:00:00.000Z', '2026-12-01T00:00:00.000Z'];
    const names = times.map((t) => outboxFileName(new Date(t)));
    expect([...names].reverse().sort()).toEqual(names);
  });
});
