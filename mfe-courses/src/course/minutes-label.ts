/** "0 minutes", "45 minutes", "1 hour 30 minutes", "1 day", "1 week": labels of the minute choices. */
export function minutesLabel(mins: number): string {
  if (mins === 0) return '0 minutes';
  const units: [number, string][] = [
    [7 * 24 * 60, 'week'],
    [24 * 60, 'day'],
    [60, 'hour'],
    [1, 'minute'],
  ];
  const parts: string[] = [];
  let rest = mins;
  for (const [size, name] of units) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
    rest -= count * size;
  }
  return parts.join(' ');
}
