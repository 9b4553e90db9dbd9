import { Tag } from '@studio/ui';

/** Spec 001 §4: Listed (a scheduled course with a future event, or a listed appointment) or Unlisted. */
export function ListedBadge({ listed }: { listed: boolean }) {
  return listed ? <Tag color="green">Listed</Tag> : <Tag>Unlisted</Tag>;
}
