import {
  DISCOUNT_DEFAULT_TIME,
  DISCOUNT_FORM_DEFAULTS,
  centsToAmountText,
  formatInZone,
  type DiscountFormInput,
} from '@studio/contracts';
import type { PromoCode } from '@studio/ui';

/** An existing promo code as form values: cents back to text, instants to wall clock in the zone. */
export function promoCodeToForm(code: PromoCode, timezone: string): DiscountFormInput {
  const date = (instant: string | null) => (instant ? formatInZone(instant, 'yyyy-MM-dd', timezone) : '');
  const time = (instant: string | null) =>
    instant ? formatInZone(instant, 'HH:00', timezone) : DISCOUNT_DEFAULT_TIME;
  return {
    ...DISCOUNT_FORM_DEFAULTS,
    label: code.label,
    code: code.code,
    type: code.type,
    value: code.type === 'dollar' ? centsToAmountText(code.value) : String(code.value),
    limit_to_course: Boolean(code.activity_id),
    activity_id: code.activity_id,
    apply_logic: code.apply_logic,
    has_start: Boolean(code.start_date),
    start_date: date(code.start_date),
    start_time: time(code.start_date),
    has_end: Boolean(code.expiration_date),
    end_date: date(code.expiration_date),
    end_time: time(code.expiration_date),
  };
}
