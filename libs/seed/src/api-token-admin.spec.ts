import { ApiTokenAdminError, apiTokenAdminStores, createApiToken } from './api-token-admin';

describe('createApiToken scopes', () => {
  // Refused before any database access.
  it.each([
    [['conversations:read', 'reports:read'], 'unknown scope reports:read (scopes: conversations:read, conversations:write, webhooks:manage)'],
    [[], 'a token needs at least one scope (scopes: conversations:read, conversations:write, webhooks:manage)'],
  ])('refuses %j', async (scopes, message) => {
    const attempt = createApiToken(apiTokenAdminStores(), 'demo', { scopes });
    await expect(attempt).rejects.toBeInstanceOf(ApiTokenAdminError);
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_SCOPES', message });
  });
});
