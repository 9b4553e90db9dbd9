import { SPEC_DATE_PATTERNS, formatInSpecPattern } from '@studio/contracts';
import type { CourseSession } from '@studio/ui';

export type ShareTarget =
  { kind: 'activity'; id: string } | { kind: 'event'; id: string } | { kind: 'product'; id: string };

/**
 * The link shapes of spec 001 §2, prefixed by the site's public host. The overlay variant adds
 * openModal=true: as the query of the course link, as one more parameter on the other two.
 */
export function shareLink(host: string, target: ShareTarget, overlay: boolean): string {
  const base = host.replace(/\/+$/, '');
  const id = encodeURIComponent(target.id);
  switch (target.kind) {
    case 'activity':
      return `${base}/activity/${id}${overlay ? '?openModal=true' : ''}`;
    case 'event':
      return `${base}/checkout?event_id=${id}${overlay ? '&openModal=true' : ''}`;
    case 'product':
      return `${base}/checkout?product_id=${id}${overlay ? '&openModal=true' : ''}`;
  }
}

/** 'Starts MMM D, h:mm A' in the location's zone (UTC by default), unless the session has its own description. */
export function sessionLabel(session: CourseSession): string {
  if (session.internal_short_description) return session.internal_short_description;
  const zone = session.Location?.timezone?.timeZoneId || 'UTC';
  return `Starts ${formatInSpecPattern(session.start, SPEC_DATE_PATTERNS.sessionStart, zone)}`;
}
