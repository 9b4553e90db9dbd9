import { DEFAULT_TIMEZONE, formatTimeZone } from '@studio/contracts';

/** The IANA zones this browser knows, for the location form's picker. */
export function timeZoneOptions(): { value: string; label: string }[] {
  const zones =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIMEZONE];
  const list = zones.includes(DEFAULT_TIMEZONE) ? zones : [DEFAULT_TIMEZONE, ...zones];
  return list.map((zone) => ({ value: zone, label: formatTimeZone(zone) }));
}
