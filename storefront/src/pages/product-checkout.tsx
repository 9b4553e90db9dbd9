/* A product's checkout page: the product, the buyer (a gift card's recipient), the wallet and the order call. */
import type { PublicProduct } from '@studio/contracts';
import type { components } from '@studio/contracts/src/generated/api';
import { productBuyerErrors } from '@studio/contracts/src/storefront/product-buyer';
import { giftRecipientErrors, MAX_GIFT_MESSAGE_LENGTH, walletMoneyRefusal } from '@studio/contracts/src/wallet/gift-card';
import { useState } from 'react';
import { productPriceText } from '../format';
import { navigate } from '../framed';
import { storeSlug } from '../links';
import { store, storeAnswer, type StoreRefusal } from '../store-call';
import type { PageProps } from '../types';
import { Layout } from './layout';
import { PointsSection, type PointsChoice } from './checkout-points';
import { formatCents } from '@studio/contracts/src/money';

type CheckoutBody = components['schemas']['CheckoutDto'];

export interface ProductCheckoutData {
  store_name: string;
  product: PublicProduct;
}

type ApiError = StoreRefusal;

/** Where the page sends the buyer next (a test watches it). */
export const productBrowser = { go: (url: string) => navigate(url) };

/**
 * A product's checkout: its name, picture, price ("/ month" for a membership) and description, and
 * the buyer. A paid product goes to the payment page and comes back to the order's page; a lead
 * magnet asks for the email (a name optional), and then says to check the inbox. What it grants is
 * said in words ("10 classes, valid 6 months"); a gift card asks for its recipient and a message.
 */
export function ProductCheckoutPage({ data, base }: PageProps<ProductCheckoutData>) {
  const { product } = data;
  const free = product.kind === 'leadMagnet';
  const giftCard = product.grant === 'giftCard';
  const [buyer, setBuyer] = useState({
    first_name: '',
    last_name: '',
    email: '',
    recipient_name: '',
    recipient_email: '',
    gift_message: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  // The proof of the email, and whether its gift cards and store credit pay (issue 24; not a subscription's).
  const [wallet, setWallet] = useState<(PointsChoice & { cents: number }) | null>(null);
  // A paid one-time product that is not a gift card (walletMoneyRefusal, the API's rule).
  const walletPays = product.kind === 'oneTime' && walletMoneyRefusal({ category: product.kind, grant: product.grant }) === null;
  // A gift card's code as mailed: it pays what it can, whoever types it.
  const [giftCode, setGiftCode] = useState('');
  // One key per attempt: a retried click replays the same order instead of making another.
  const [attemptKey, setAttemptKey] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    const named = Object.fromEntries(
      Object.entries(buyer)
        .map(([k, v]) => [k, v.trim()])
        // A gift card's recipient and message are sent for a gift card only.
        .filter(([k, v]) => v !== '' && (giftCard || !(k.startsWith('recipient_') || k === 'gift_message'))),
    ) as {
      first_name?: string;
      last_name?: string;
      email?: string;
      recipient_name?: string;
      recipient_email?: string;
    };
    const missing = { ...productBuyerErrors(product.kind, named), ...giftRecipientErrors(giftCard, named) };
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      setMessage(Object.values(missing)[0]);
      return;
    }
    setErrors({});
    setBusy(true);
    const key = attemptKey ?? `${product.product_id}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    setAttemptKey(key);
    try {
      // A product sends no party_size: the API defaults it to 1 (the generated type, which reads
      // the default as always there, requires it; every other field is checked here).
      const body: Omit<CheckoutBody, 'party_size'> = {
        product_id: product.product_id,
        ...named,
        email: buyer.email.trim(),
        ...(wallet?.use_wallet_money ? { points_token: wallet.token, use_wallet_money: true } : {}),
        ...(walletPays && giftCode.trim() ? { gift_card_code: giftCode.trim() } : {}),
      };
      const answer = await storeAnswer(
        store.POST('/api/public/{slug}/checkout', {
          params: { path: { slug: storeSlug(base) }, header: { 'Idempotency-Key': key } },
          body: body as CheckoutBody,
        }),
      );
      if (free) {
        setSentTo(buyer.email.trim());
        setBusy(false);
      } else productBrowser.go(answer.payment_url ?? answer.confirmation_url);
    } catch (error) {
      const refused = error as ApiError;
      setErrors(refused.errors ?? {});
      setMessage(refused.message);
      setAttemptKey(null);
      setBusy(false);
    }
  };

  const field = (id: keyof typeof buyer, label: string, autoComplete: string, required: boolean) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {id === 'gift_message' ? (
        <textarea
          id={id}
          rows={3}
          maxLength={MAX_GIFT_MESSAGE_LENGTH}
          value={buyer[id]}
          onInput={(e) => setBuyer({ ...buyer, [id]: (e.target as HTMLTextAreaElement).value })}
          aria-invalid={errors[id] ? true : undefined}
          aria-describedby={errors[id] ? `${id}-error` : undefined}
        />
      ) : (
        <input
          id={id}
          type={(id.endsWith('email') ? 'email' : 'text') as 'text'}
          autoComplete={autoComplete}
          required={required}
          value={buyer[id]}
          onInput={(e) => setBuyer({ ...buyer, [id]: (e.target as HTMLInputElement).value })}
          aria-invalid={errors[id] ? true : undefined}
          aria-describedby={errors[id] ? `${id}-error` : undefined}
        />
      )}
      {errors[id] ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {errors[id]}
        </p>
      ) : null}
    </div>
  );

  return (
    <Layout base={base} storeName={data.store_name}>
      <h1>{product.name}</h1>
      <section className="checkout-summary" aria-label="Your product">
        {product.image_url ? <img className="card-image" src={product.image_url} alt="" /> : null}
        <p className="card-price">{productPriceText(product)}</p>
        {product.grant_text ? <p className="card-grant">{product.grant_text}</p> : null}
        {product.description ? <p>{product.description}</p> : null}
      </section>
      {sentTo ? (
        <section role="status" aria-live="polite">
          <h2>Check your inbox</h2>
          <p>We sent the download link to {sentTo}.</p>
        </section>
      ) : (
        <form className="checkout-form" onSubmit={submit} noValidate>
          {free ? (
            <>
              {field('email', 'Email', 'email', true)}
              {field('first_name', 'First name (optional)', 'given-name', false)}
            </>
          ) : (
            <>
              {field('first_name', 'First name', 'given-name', true)}
              {field('last_name', 'Last name', 'family-name', true)}
              {field('email', 'Email', 'email', true)}
            </>
          )}
          {giftCard ? (
            <fieldset className="gift-recipient">
              <legend>Who is it for?</legend>
              {field('recipient_name', "Recipient's name", 'off', true)}
              {field('recipient_email', "Recipient's email", 'off', true)}
              {field('gift_message', 'Message (optional)', 'off', false)}
            </fieldset>
          ) : null}
          {walletPays ? (
            <PointsSection
              slug={storeSlug(base)}
              email={buyer.email}
              errors={errors}
              forBooking={false}
              onChoose={(choice, holdings) =>
                setWallet(
                  choice
                    ? {
                        ...choice,
                        cents: (holdings ?? [])
                          .filter((h) => h.kind === 'gift_card' || h.kind === 'store_credit')
                          .reduce((sum, h) => sum + h.balance, 0),
                      }
                    : null,
                )
              }
            />
          ) : null}
          {walletPays ? (
            <div className="field">
              <label htmlFor="gift_card_code">Gift card code (optional)</label>
              <input
                id="gift_card_code"
                autoComplete="off"
                value={giftCode}
                onInput={(e) => setGiftCode((e.target as HTMLInputElement).value)}
                aria-invalid={errors.gift_card_code ? true : undefined}
                aria-describedby={errors.gift_card_code ? 'gift_card_code-error' : undefined}
              />
              {errors.gift_card_code ? (
                <p className="field-error" id="gift_card_code-error" role="alert">
                  {errors.gift_card_code}
                </p>
              ) : null}
            </div>
          ) : null}
          {free ? null : (
            <dl className="checkout-total">
              <dt>Total</dt>
              <dd>{productPriceText(product)}</dd>
              {wallet?.use_wallet_money && wallet.cents > 0 ? (
                <>
                  <dt>Gift cards and credit</dt>
                  <dd>−{formatCents(Math.min(wallet.cents, product.price_cents))}</dd>
                  <dt>To pay by card</dt>
                  <dd>{formatCents(Math.max(0, product.price_cents - wallet.cents))}</dd>
                </>
              ) : null}
            </dl>
          )}
          {message ? (
            <p className="form-error" role="alert">
              {message}
            </p>
          ) : null}
          <button type="submit" className="button" disabled={busy}>
            {busy
              ? 'Sending…'
              : free
                ? 'Send me the download'
                : wallet?.use_wallet_money && wallet.cents >= product.price_cents
                  ? 'Buy now'
                  : 'Continue to payment'}
          </button>
        </form>
      )}
    </Layout>
  );
}
