import { Tag, type SessionBadge as Badge } from '@studio/ui';

const COLORS: Record<Badge, string | undefined> = {
  Cancelled: 'red',
  Finished: undefined,
  'At capacity': 'orange',
  Open: 'green',
};

/** Spec 001 §2: Finished, At capacity or Open, as the server judged it; Cancelled when the studio cancelled it (issue 23). */
export function SessionBadge({ badge }: { badge: Badge }) {
  return <Tag color={COLORS[badge]}>{badge}</Tag>;
}
