import { formatCents } from '@studio/contracts';

/** "Free" or "$45.00". */
export function coursePrice(priceType: 'standard' | 'free', cents: number | undefined): string {
  return priceType === 'free' ? 'Free' : formatCents(cents ?? 0);
}
