import { giftCardCodeFromBytes, normalizeGiftCardCode } from '@studio/contracts';
import { createHash, createHmac } from 'node:crypto';

/**
 * A gift card's code (issue 24): derived, never stored. It is an HMAC-SHA256 of the card's grant key
 * (`order:<orderId>:line:<lineId>`) under the app's secret, as 16 characters of the unambiguous
 * alphabet in 4 groups ("7K3M-Q9TX-4HBN-WD2R"): the same line always gives the same code (a mail
 * sent again says the same), and nobody without the secret can make one.
 */
export function giftCardCode(secret: Buffer | string, key: string): string {
  return giftCardCodeFromBytes(createHmac('sha256', secret).update(`gift-card:${key}`).digest());
}

/**
 * What the wallet keeps of a code (wallet_holding.code_hash): sha256 of the normalized code (upper
 * case, no dashes or spaces), so a code typed any way finds its card. Null when the text cannot be
 * a code (look nothing up then).
 */
export function hashGiftCardCode(code: string): string | null {
  const normalized = normalizeGiftCardCode(code);
  return normalized ? createHash('sha256').update(normalized).digest('hex') : null;
}
