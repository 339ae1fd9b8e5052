import { CatalogError } from '@cmsg/errors';
import type { AuthenticateTokenRequest, AuthenticatedToken } from '@cmsg/proto';
import { apiTokenSha256 } from './api-token';
import { TokenAuthenticator } from './token-authenticator';

const token = `cmsg_${'a'.repeat(64)}`;
const authenticated: AuthenticatedToken = { business_id: 'b1', business_slug: 'acme', token_uuid: 't1', scopes: ['conversations:read'] };

function lookupAnswering(...answers: (AuthenticatedToken | Error)[]) {
  const requests: AuthenticateTokenRequest[] = [];
  return {
    requests,
    authenticateToken: async (request: AuthenticateTokenRequest) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer || answer instanceof Error) throw answer ?? new Error('no answer left');
      return answer;
    },
  };
}

describe('TokenAuthenticator', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('looks the token up by its SHA-256', async () => {
    const lookup = lookupAnswering(authenticated);
    await expect(new TokenAuthenticator(lookup, 4000, clock).authenticate(token)).resolves.toEqual(authenticated);
    expect(lookup.requests).toEqual([{ token_sha256: apiTokenSha256(token) }]);
  });

  it('serves a success from the cache until the TTL ends', async () => {
    const lookup = lookupAnswering(authenticated, authenticated);
    const authenticator = new TokenAuthenticator(lookup, 4000, clock);
    await authenticator.authenticate(token);
    now += 3999;
    await authenticator.authenticate(token);
    expect(lookup.requests).toHaveLength(1);
    now += 1;
    await authenticator.authenticate(token);
    expect(lookup.requests).toHaveLength(2);
  });

  it('honours a revocation once the cached entry expires', async () => {
    const lookup = lookupAnswering(authenticated, new CatalogError('INVALID_API_TOKEN'));
    const authenticator = new TokenAuthenticator(lookup, 4000, clock);
    await authenticator.authenticate(token);
    now += 4000;
    await expect(authenticator.authenticate(token)).rejects.toMatchObject({ code: 'INVALID_API_TOKEN' });
  });

  it('caches the scopes with the token: a change of scopes shows once the cached entry expires', async () => {
    const widened: AuthenticatedToken = { ...authenticated, scopes: ['conversations:read', 'conversations:write'] };
    const lookup = lookupAnswering(authenticated, widened);
    const authenticator = new TokenAuthenticator(lookup, 4000, clock);
    await authenticator.authenticate(token);
    now += 3999;
    await expect(authenticator.authenticate(token)).resolves.toMatchObject({ scopes: ['conversations:read'] });
    now += 1;
    await expect(authenticator.authenticate(token)).resolves.toMatchObject({ scopes: ['conversations:read', 'conversations:write'] });
  });

  it('never caches a failure', async () => {
    const lookup = lookupAnswering(new CatalogError('INVALID_API_TOKEN'), authenticated);
    const authenticator = new TokenAuthenticator(lookup, 4000, clock);
    await expect(authenticator.authenticate(token)).rejects.toMatchObject({ code: 'INVALID_API_TOKEN' });
    await expect(authenticator.authenticate(token)).resolves.toEqual(authenticated);
    expect(lookup.requests).toHaveLength(2);
  });

  it('does not cache at all with a TTL of 0', async () => {
    const lookup = lookupAnswering(authenticated, authenticated);
    const authenticator = new TokenAuthenticator(lookup, 0, clock);
    await authenticator.authenticate(token);
    await authenticator.authenticate(token);
    expect(lookup.requests).toHaveLength(2);
  });
});
