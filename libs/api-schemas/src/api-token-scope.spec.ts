import { API_TOKEN_SCOPES, grantedScopesOf, isApiTokenScope, requiredScopeOf } from './api-token-scope';
import { PUBLIC_ENDPOINTS } from './public-endpoints';

describe('requiredScopeOf (CONTRACT 9.3)', () => {
  it.each([
    ['get', '/conversations', 'conversations:read'],
    ['get', '/contacts', 'conversations:read'],
    ['get', '/scheduled-messages/:uuid', 'conversations:read'],
    ['post', '/conversation/status', 'conversations:read'],
    ['post', '/conversation/notes', 'conversations:write'],
    ['post', '/conversation/messages/text', 'conversations:write'],
    ['delete', '/conversation/tags', 'conversations:write'],
    ['delete', '/scheduled-messages/:uuid', 'conversations:write'],
    ['post', '/conversation/status/extra', 'conversations:write'],
    ['get', '/webhook-endpoints', 'webhooks:manage'],
    ['post', '/webhook-endpoints', 'webhooks:manage'],
    ['get', '/webhook-endpoints/:uuid', 'webhooks:manage'],
    ['patch', '/webhook-endpoints/:uuid', 'webhooks:manage'],
    ['delete', '/webhook-endpoints/:uuid', 'webhooks:manage'],
    ['post', '/webhook-endpoints/:uuid/rotate-secret', 'webhooks:manage'],
    ['post', '/webhook-endpoints/:uuid/ping', 'webhooks:manage'],
    ['get', '/webhook-endpoints/:uuid/deliveries', 'webhooks:manage'],
    ['post', '/webhook-endpoints/:uuid/deliveries/:event_id/redeliver', 'webhooks:manage'],
    // Only the path segment counts: a path that merely starts with the same letters is an ordinary route.
    ['get', '/webhook-endpoints-archive', 'conversations:read'],
    ['get', '/events', 'conversations:read'],
    ['get', '/events/:id', 'conversations:read'],
    ['post', '/broadcasts', 'conversations:write'],
    ['post', '/broadcasts/preview', 'conversations:read'],
    ['get', '/broadcasts/:uuid', 'conversations:read'],
    ['get', '/broadcasts/:uuid/recipients', 'conversations:read'],
    ['post', '/broadcasts/:uuid/pause', 'conversations:write'],
    ['post', '/broadcasts/:uuid/retry-failed', 'conversations:write'],
  ])('%s %s needs %s', (method, path, scope) => {
    expect(requiredScopeOf({ method, path })).toBe(scope);
  });

  it('gives every public endpoint a scope: reads for GETs, the status snapshot, the contact search and the broadcast preview, writes for the rest', () => {
    const readsWithABody = ['getConversationStatus', 'searchContacts', 'previewBroadcast'];
    for (const endpoint of PUBLIC_ENDPOINTS) {
      const read = endpoint.method === 'get' || readsWithABody.includes(endpoint.operationId);
      const webhooks = endpoint.path.startsWith('/webhook-endpoints');
      expect({ operation: endpoint.operationId, scope: requiredScopeOf(endpoint) }).toEqual({
        operation: endpoint.operationId,
        scope: webhooks ? 'webhooks:manage' : read ? 'conversations:read' : 'conversations:write',
      });
    }
  });
});

describe('grantedScopesOf', () => {
  it('grants every scope to a token stored before scopes existed', () => {
    expect(grantedScopesOf(undefined)).toEqual([...API_TOKEN_SCOPES]);
    expect(grantedScopesOf(null)).toEqual([...API_TOKEN_SCOPES]);
  });

  it('grants the stored scopes, in catalog order, ignoring names it does not know', () => {
    expect(grantedScopesOf(['webhooks:manage', 'conversations:read', 'reports:read'])).toEqual(['conversations:read', 'webhooks:manage']);
    expect(grantedScopesOf([])).toEqual([]);
  });

  it('tells scope names apart', () => {
    expect(API_TOKEN_SCOPES.every(isApiTokenScope)).toBe(true);
    expect(isApiTokenScope('conversations')).toBe(false);
  });
});
