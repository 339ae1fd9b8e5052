import { API_TOKEN_SCOPES } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import { InMemoryTokenAuthentication } from '../testing/in-memory-api-tokens';
import { authenticateToken } from './authenticate-token.usecase';

describe('authenticateToken', () => {
  let ports: InMemoryTokenAuthentication;
  beforeEach(() => {
    ports = new InMemoryTokenAuthentication();
    ports.businessSlugs.set('b1', 'acme');
    ports.businessSlugs.set('b2', 'globex');
    ports.tokens.set('hash-1', { _id: 't1', business_id: 'b1', revoked: false, scopes: ['conversations:read'] });
    ports.tokens.set('hash-2', { _id: 't2', business_id: 'b2', revoked: false, scopes: ['webhooks:manage', 'a:retired-scope'] });
  });

  it('answers the business, its slug, the token and the scopes it grants (an unknown stored scope is dropped)', async () => {
    expect(await authenticateToken(ports, 'hash-1')).toEqual({ business_id: 'b1', business_slug: 'acme', token_uuid: 't1', scopes: ['conversations:read'] });
    expect(await authenticateToken(ports, 'hash-2')).toEqual({ business_id: 'b2', business_slug: 'globex', token_uuid: 't2', scopes: ['webhooks:manage'] });
  });

  it('grants every scope to a token stored before scopes existed', async () => {
    ports.tokens.set('hash-old', { _id: 't3', business_id: 'b1', revoked: false, scopes: undefined });
    expect((await authenticateToken(ports, 'hash-old')).scopes).toEqual([...API_TOKEN_SCOPES]);
  });

  it.each([
    ['an unknown hash', 'hash-unknown'],
    ['a revoked token', 'hash-revoked'],
    ['a token whose business is gone', 'hash-orphan'],
  ])('refuses %s with INVALID_API_TOKEN', async (_case, hash) => {
    ports.tokens.set('hash-revoked', { _id: 't4', business_id: 'b1', revoked: true, scopes: [] });
    ports.tokens.set('hash-orphan', { _id: 't5', business_id: 'b-gone', revoked: false, scopes: [] });
    const error = await authenticateToken(ports, hash).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CatalogError);
    expect(error).toMatchObject({ code: 'INVALID_API_TOKEN' });
  });
});
