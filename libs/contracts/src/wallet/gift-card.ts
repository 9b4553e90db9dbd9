/* Without zod: the store's pages use these in the browser. */

/*
 * A gift card's code (issue 24, "Gift cards"): 16 characters of an alphabet without look-alikes
 * (no 0/O, 1/I; 32 characters, 80 bits), shown as 4 groups of 4 ("7K3M-Q9TX-…"). The server derives it from the card's
 * line key with the app's secret and keeps only its hash; a typed code is normalized (case, dashes,
 * spaces) before it is hashed, so "7k3m q9tx…" finds the same card.
 */
export const GIFT_CARD_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const GIFT_CARD_CODE_LENGTH = 16;
/** The longest text a typed code may be before it is normalized (dashes and spaces included). */
export const GIFT_CARD_CODE_MAX_INPUT = 40;

/** 16 code characters from 16 bytes (each byte's low 5 bits pick a character: no bias, 32 divides 256). */
export function giftCardCodeFromBytes(bytes: ArrayLike<number>): string {
  if (bytes.length < GIFT_CARD_CODE_LENGTH) throw new RangeError('A gift card code needs 16 bytes');
  let code = '';
  for (let i = 0; i < GIFT_CARD_CODE_LENGTH; i++) code += GIFT_CARD_CODE_ALPHABET[bytes[i] & 31];
  return formatGiftCardCode(code)!;
}

/** A typed code as the server hashes it: upper case, without dashes and spaces; null when it cannot be a code. */
export function normalizeGiftCardCode(input: string): string | null {
  if (typeof input !== 'string' || input.length > GIFT_CARD_CODE_MAX_INPUT) return null;
  const code = input.toUpperCase().replace(/[\s-]+/g, '');
  if (code.length !== GIFT_CARD_CODE_LENGTH) return null;
  for (const c of code) if (!GIFT_CARD_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** A code as a person reads it: "7K3M-Q9TX-4HBN-WD2R"; null when it cannot be a code. */
export function formatGiftCardCode(input: string): string | null {
  const code = normalizeGiftCardCode(input);
  return code ? code.match(/.{4}/g)!.join('-') : null;
}

/** The longest personal message of a gift card. */
export const MAX_GIFT_MESSAGE_LENGTH = 500;

export const GIFT_CARD_MESSAGES = {
  recipientNameRequired: "Enter the recipient's name.",
  recipientNameTooLong: "The recipient's name is at most 200 characters.",
  recipientEmail: "Enter the recipient's email address.",
  messageTooLong: `The message is at most ${MAX_GIFT_MESSAGE_LENGTH} characters.`,
  notAGiftCard: 'Only a gift card takes a recipient.',
  codeInvalid: 'Enter the gift card code as it was mailed, such as 7K3M-Q9TX-4HBN-WD2R.',
  subscriptionByCard: 'A subscription is paid by card.',
  giftCardByCard: 'A gift card is paid by card.',
} as const;

/**
 * Whether a product's price may be paid with gift cards and store credit (issue 24): a one-time
 * product may; a subscription renews on the card; a gift card is paid by card, so gift cards and
 * store credit cannot be turned into a new card to pass on. The reason when not, else null.
 */
export function walletMoneyRefusal(price: { category: string; grant: string }): string | null {
  if (price.category === 'subscription') return GIFT_CARD_MESSAGES.subscriptionByCard;
  if (price.grant === 'giftCard') return GIFT_CARD_MESSAGES.giftCardByCard;
  return null;
}

/** What a gift card's buyer must give (the recipient's name and email); nothing for another product. */
export function giftRecipientErrors(
  isGiftCard: boolean,
  input: { recipient_name?: string; recipient_email?: string },
): Record<string, string> {
  if (!isGiftCard) return {};
  const errors: Record<string, string> = {};
  if (!input.recipient_name?.trim()) errors.recipient_name = GIFT_CARD_MESSAGES.recipientNameRequired;
  if (!input.recipient_email?.trim()) errors.recipient_email = GIFT_CARD_MESSAGES.recipientEmail;
  return errors;
}
