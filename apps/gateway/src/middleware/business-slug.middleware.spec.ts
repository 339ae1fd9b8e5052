import { isTokenBusinessSlug } from './business-slug.middleware';

describe('isTokenBusinessSlug', () => {
  it.each(['acme', 'ACME', 'Acme'])('matches %s to the token business acme', (slug) => {
    expect(isTokenBusinessSlug(slug, 'acme')).toBe(true);
  });

  it('matches whatever case the business slug is stored in', () => {
    expect(isTokenBusinessSlug('acme-store', 'Acme-Store')).toBe(true);
  });

  it.each(['acme2', 'acm', 'other', ''])('does not match %j', (slug) => {
    expect(isTokenBusinessSlug(slug, 'acme')).toBe(false);
  });
});
