/**
 * The checkout's quote: the store prices the buyer's choices (the page only shows its figures), and
 * only the newest quote asked is shown: an older answer arriving late (points are quoted as they
 * are typed) never overwrites a newer one. A refused quote clears the figures and shows the refusal
 * under its fields (the discount code's field when it names none).
 */
import { useRef, useState } from 'react';
import type { CheckoutQuote } from '@studio/contracts';
import { store, storeAnswer, type StoreRefusal } from '../store-call';
import { quoteRequest, type PricedChoices } from './checkout-request';

type SetErrors = (update: (errors: Record<string, string>) => Record<string, string>) => void;

/** The fields a quote's refusal may name: a new answer clears them. */
const QUOTED_FIELDS = [
  'discount_code',
  'redeem_points',
  'points_token',
  'cover_booking',
  'use_wallet_money',
  'gift_card_code',
] as const;

export function useCheckoutQuote(slug: string, setErrors: SetErrors) {
  const [quote, setQuote] = useState<CheckoutQuote | null>(null);
  const latest = useRef(0);

  const refreshQuote = async (choices: PricedChoices) => {
    const asked = ++latest.current;
    try {
      const answer = await storeAnswer(
        store.POST('/api/public/{slug}/checkout/quote', {
          params: { path: { slug } },
          body: quoteRequest(choices),
        }),
      );
      if (asked !== latest.current) return;
      setQuote(answer);
      setErrors((e) => ({ ...e, ...Object.fromEntries(QUOTED_FIELDS.map((field) => [field, ''])) }));
    } catch (error) {
      if (asked !== latest.current) return;
      const refused = error as StoreRefusal;
      setQuote(null);
      setErrors((e) => ({
        ...e,
        ...(refused.errors ?? {}),
        ...(refused.errors ? {} : { discount_code: refused.message }),
      }));
    }
  };

  return { quote, refreshQuote };
}
