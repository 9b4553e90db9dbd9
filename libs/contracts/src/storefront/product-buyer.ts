import type { ProductPriceType } from '../products/product.schema';
import { STUDENT_MESSAGES } from '../students/student-messages';

/*
 * Who a store checkout needs, without zod (the store's pages use it in the browser; the checkout
 * schema and the server use the same).
 */

/** A missing first or last name, by the student rules' messages. */
export function buyerNameErrors(input: { first_name?: string; last_name?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (input.first_name === undefined) errors.first_name = STUDENT_MESSAGES.firstNameRequired;
  if (input.last_name === undefined) errors.last_name = STUDENT_MESSAGES.lastNameRequired;
  return errors;
}

/**
 * What a product's buyer must give besides the email: nothing for a lead magnet (a name is
 * optional), a first and last name for anything paid. The server says the same after reading the
 * product; the page checks it before posting.
 */
export function productBuyerErrors(
  kind: ProductPriceType,
  input: { first_name?: string; last_name?: string },
): Record<string, string> {
  return kind === 'leadMagnet' ? {} : buyerNameErrors(input);
}
