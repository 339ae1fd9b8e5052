import { ApiTokenAdminError, type ApiTokenAdminStores, createApiToken } from './api-token-admin';

const unreachable = () => Promise.reject(new Error('the stores were reached'));
const storesNeverReached: ApiTokenAdminStores = {
  businesses: { findBySlug: unreachable },
  apiTokens: { create: unreachable, revoke: unreachable, listOfBusiness: unreachable },
};

describe('createApiToken scopes', () => {
  // Refused before any database access.
  it.each([
    [['conversations:read', 'reports:read'], 'unknown scope reports:read (scopes: conversations:read, conversations:write, webhooks:manage)'],
    [[], 'a token needs at least one scope (scopes: conversations:read, conversations:write, webhooks:manage)'],
  ])('refuses %j', async (scopes, message) => {
    const attempt = createApiToken(storesNeverReached, 'demo', { scopes });
    await expect(attempt).rejects.toBeInstanceOf(ApiTokenAdminError);
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_SCOPES', message });
  });
});
