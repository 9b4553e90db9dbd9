/*
 * A type test of the storefront's API client (store-call.ts), proven by the storefront's typecheck
 * (`npx tsc -p storefront/tsconfig.json --noEmit`), not run: a path the OpenAPI document does not
 * have, a body field of another type or missing, a method the path is not served with, a missing
 * query or a wrong header are compile errors; each `@ts-expect-error` fails the typecheck if its
 * line compiles. (A body's extra field is not: openapi-fetch infers the call's options, and an
 * inferred object is not checked for excess properties.)
 */
import { store, storeAnswer } from './store-call';

const slug = 'demo-studio';

export async function typedStoreCalls(): Promise<void> {
  // The right path and body compile, and the answer is the document's (its fields typed).
  const quote = await storeAnswer(
    store.POST('/api/public/{slug}/checkout/quote', {
      params: { path: { slug } },
      body: { event_id: 'e', party_size: 2, discount_code: 'SPRING10' },
    }),
  );
  const cents: number = quote.total_cents;
  void cents;

  // @ts-expect-error a misspelt path
  void store.POST('/api/public/{slug}/checkout/qoute', { params: { path: { slug } }, body: { party_size: 1 } });

  void store.POST('/api/public/{slug}/checkout/quote', {
    params: { path: { slug } },
    // @ts-expect-error a body field of the wrong type (party_size is a number)
    body: { event_id: 'e', party_size: '2' },
  });

  void store.POST('/api/public/{slug}/waiver', {
    params: { path: { slug } },
    // @ts-expect-error a body without a field the API requires (the buyer's email)
    body: { event_id: 'e', first_name: 'A', last_name: 'B' },
  });

  // @ts-expect-error a GET of a path served only as POST
  void store.GET('/api/public/{slug}/checkout');

  void store.GET('/api/public/{slug}/waitlist/claim', {
    // @ts-expect-error the query the operation requires is missing
    params: { path: { slug } },
  });

  void store.POST('/api/public/{slug}/checkout', {
    // @ts-expect-error the Idempotency-Key is a string
    params: { path: { slug }, header: { 'Idempotency-Key': 42 } },
    body: { event_id: 'e', party_size: 1, email: 'a@b.c' },
  });

  const booking = await storeAnswer(
    store.POST('/api/public/{slug}/bookings/{token}/cancel', { params: { path: { slug, token: 't' } } }),
  );
  // @ts-expect-error a field the answer does not have
  void booking.total_paid;
}
