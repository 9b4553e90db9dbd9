import { INestApplicationContext } from '@nestjs/common';
import { addDays } from 'date-fns/addDays';
import { courseListQuerySchema, discountInstant, formatInZone, discountPayloadSchema, type DiscountPayloadInput } from '@studio/contracts';
import { RequestContext } from '../common/request-context';
import { CoursesService } from '../modules/catalog/courses.service';
import { DiscountsService } from '../modules/discounts/discounts.service';

/**
 * The demo studio's discount codes, one in every state the Discounts page shows: active, scheduled
 * and expired; one limited to a course; once per order and on each ticket. Dates are relative to
 * today, typed as the admin would (a date and an hour in the organization's zone).
 */
export async function seedDemoDiscounts(app: INestApplicationContext, ctx: RequestContext, timezone: string): Promise<void> {
  const discounts = app.get(DiscountsService);
  const courses = app.get(CoursesService);
  const day = (offset: number, time: string) =>
    discountInstant(formatInZone(addDays(new Date(), offset), 'yyyy-MM-dd', timezone), time, timezone)!.toISOString();
  const { items } = await courses.list(ctx, courseListQuerySchema.parse({ search: 'Wheel Throwing' }));
  const wheel = items[0]?.activity_id ?? null;

  const codes: DiscountPayloadInput[] = [
    { label: 'Welcome discount', code: 'WELCOME10', type: 'percentage', value: 10, apply_logic: 'once' },
    {
      label: 'Wheel throwing: $15 off each ticket',
      code: 'WHEEL15',
      type: 'dollar',
      value: 1500,
      activity_id: wheel,
      apply_logic: 'each',
      start_date: day(-7, '09:00'),
      expiration_date: day(30, '23:00'),
    },
    {
      label: 'Holiday sale',
      code: 'HOLIDAY20',
      type: 'percentage',
      value: 20,
      apply_logic: 'each',
      start_date: day(14, '12:00'),
      expiration_date: day(28, '23:00'),
    },
    {
      label: 'Summer open studio',
      code: 'SUMMER25',
      type: 'dollar',
      value: 2500,
      apply_logic: 'once',
      start_date: day(-90, '12:00'),
      expiration_date: day(-60, '23:00'),
    },
  ];
  for (const code of codes) await discounts.create(ctx, discountPayloadSchema.parse(code));
  // The active codes have been used: the page shows their counts.
  const { items: seeded } = await discounts.list(ctx, { page: 1, limit: 100 });
  const uses: Record<string, number> = { WELCOME10: 3, WHEEL15: 2, SUMMER25: 5 };
  for (const discount of seeded) {
    for (let i = 0; i < (uses[discount.code] ?? 0); i++) await discounts.incrementUsage(ctx, discount.id);
  }
}
