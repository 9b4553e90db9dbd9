/**
 * The session checkout's display parts: a form field with its label and its refusal, and the total
 * as the store quoted it (subtotal, discount, points, what a pass covers, gift cards and credit,
 * what the card pays). They show what they are given; no state, no calls.
 */
import type { CheckoutQuote } from '@studio/contracts';
import { Fragment } from 'react';
import { priceText } from '../format';

/** One form field with its label and, when the store refused it, the reason (announced). */
export function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: preact.ComponentChildren;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The total: the quote's lines when there is one, else the unit price times the party. */
export function CheckoutTotal({
  quote,
  total,
  due,
  free,
}: {
  quote: CheckoutQuote | null;
  /** The total shown (the quote's, else the price times the party). */
  total: number;
  /** What the card pays (the total less what the buyer's holdings pay). */
  due: number;
  /** A free course: its total reads "Free". */
  free: boolean;
}) {
  return (
    <dl className="checkout-total" aria-live="polite">
      {quote && (quote.discount_cents > 0 || quote.points_cents > 0) ? (
        <>
          <dt>Subtotal</dt>
          <dd>{priceText(quote.subtotal_cents, false)}</dd>
        </>
      ) : null}
      {quote && quote.discount_cents > 0 ? (
        <>
          <dt>Discount{quote.discount_code ? ` (${quote.discount_code})` : ''}</dt>
          <dd>−{priceText(quote.discount_cents, false)}</dd>
        </>
      ) : null}
      {quote && quote.points_cents > 0 ? (
        <>
          <dt>Points ({quote.points_redeemed.toLocaleString('en-US')})</dt>
          <dd>−{priceText(quote.points_cents, false)}</dd>
        </>
      ) : null}
      {quote?.covered_by ? (
        <>
          <dt>Covered by {quote.covered_by.label}</dt>
          <dd>
            {quote.covered_by.kind === 'pack'
              ? `${quote.covered_by.amount} ${quote.covered_by.amount === 1 ? 'credit' : 'credits'}`
              : '1 booking'}
          </dd>
        </>
      ) : null}
      <dt>Total</dt>
      <dd>{priceText(total, free || total === 0)}</dd>
      {(quote?.wallet_money ?? []).map((m) => (
        <Fragment key={m.holding_id}>
          <dt>{m.label}</dt>
          <dd>−{priceText(m.cents, false)}</dd>
        </Fragment>
      ))}
      {(quote?.wallet_money ?? []).length > 0 ? (
        <>
          <dt>To pay by card</dt>
          <dd>{priceText(due, false)}</dd>
        </>
      ) : null}
    </dl>
  );
}
