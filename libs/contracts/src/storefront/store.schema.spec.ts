import { slugify, storeAddress, storeLinks, storeSettingsSchema, STORE_MESSAGES } from './store.schema';

describe('store addresses (issue 21)', () => {
  it('makes a slug from a studio name', () => {
    expect(slugify('Demo Studio')).toBe('demo-studio');
    expect(slugify('  Céramique & Co. — Paris!  ')).toBe('ceramique-co-paris');
    expect(slugify('A')).toBe('studio-a');
    expect(slugify('***')).toBe('studio');
    expect(slugify('Admin')).toBe('admin-studio');
    expect(slugify('x'.repeat(80))).toHaveLength(36);
  });

  it('refuses a malformed, reserved or empty slug with what is wrong', () => {
    const message = (slug: unknown) => storeSettingsSchema.safeParse({ slug }).error?.issues[0].message;
    expect(message('')).toBe(STORE_MESSAGES.slugRequired);
    expect(message(undefined)).toBe(STORE_MESSAGES.slugRequired);
    for (const bad of ['-clay', 'clay-', 'cl--ay', 'Clay', 'c', 'clay studio', 'x'.repeat(41), 'clay/x'])
      expect([bad, message(bad)]).toEqual([bad, STORE_MESSAGES.slugInvalid]);
    expect(message('api')).toBe(STORE_MESSAGES.slugReserved);
    expect(storeSettingsSchema.parse({ slug: ' clay-2 ' })).toEqual({ slug: 'clay-2', public_url: null });
  });

  it('takes the own site address only as a full http(s) address, and empty as none', () => {
    const parse = (public_url: unknown) => storeSettingsSchema.safeParse({ slug: 'clay', public_url });
    expect(parse('https://clay.example/shop/').data?.public_url).toBe('https://clay.example/shop');
    expect(parse('').data?.public_url).toBeNull();
    expect(parse(null).data?.public_url).toBeNull();
    for (const bad of [
      'clay.example',
      'javascript:alert(1)',
      'https://user:pw@clay.example',
      'ftp://x.example',
    ])
      expect(parse(bad).error?.issues[0].message).toBe(STORE_MESSAGES.siteUrlInvalid);
  });

  it('puts the store at the own site, else under the app', () => {
    expect(storeAddress({ appUrl: 'https://app.example/', slug: 'clay' })).toBe('https://app.example/s/clay');
    expect(
      storeAddress({ appUrl: 'https://app.example', slug: 'clay', publicUrl: 'https://clay.example/' }),
    ).toBe('https://clay.example');
    expect(storeLinks.checkoutSession('https://app.example/s/clay', 'e1')).toBe(
      'https://app.example/s/clay/checkout?event_id=e1',
    );
  });
});
