import { useMemo } from 'react';
import { browserTimeZone, formatDate, formatDateTime, formatTime } from '@studio/contracts';
import { useOrganizationTimezone } from './session-context';

/**
 * The date formatters of libs/contracts bound to the admin's zones (the organization's and the
 * browser's), so a time read in another zone (a location's) names that zone: "6:00 PM CET".
 */
export function useDateFormat() {
  const organizationZone = useOrganizationTimezone();
  return useMemo(() => {
    const viewerZones = [organizationZone, browserTimeZone()];
    return {
      viewerZones,
      dateTime: (instant: Date | string | number, zone: string = organizationZone) =>
        formatDateTime(instant, zone, { viewerZones }),
      date: (instant: Date | string | number, zone: string = organizationZone) =>
        formatDate(instant, zone, { viewerZones }),
      time: (instant: Date | string | number, zone: string = organizationZone) =>
        formatTime(instant, zone, { viewerZones }),
    };
  }, [organizationZone]);
}
