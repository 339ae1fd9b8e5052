import { z } from './zod';

/** What an API token may do (CONTRACT 9.3); a token holds one or more of these. */
export const API_TOKEN_SCOPES = ['conversations:read', 'conversations:write', 'webhooks:manage'] as const;

export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const ApiTokenScopeSchema = z.enum(API_TOKEN_SCOPES);

export const API_TOKEN_SCOPE_DESCRIPTIONS: Readonly<Record<ApiTokenScope, string>> = {
  'conversations:read': 'Read conversations, contacts, channels and everything else a GET returns, POST /conversation/status, POST /contacts/search and POST /broadcasts/preview.',
  'conversations:write': 'Every other business endpoint: messages, notes, inbox status, tags, mailboxes, AI, schedules, action groups, broadcasts, files, the tester module.',
  'webhooks:manage': 'Register, change, rotate, ping and delete webhook endpoints and read their deliveries (/webhook-endpoints and below).',
};

export function isApiTokenScope(value: string): value is ApiTokenScope {
  return (API_TOKEN_SCOPES as readonly string[]).includes(value);
}

/**
 * The scopes a stored token grants: a token stored before scopes existed has no `scopes` field
 * and keeps every scope it had then (all of them). Names this version does not know are ignored.
 */
export function grantedScopesOf(stored: readonly string[] | null | undefined): ApiTokenScope[] {
  if (stored === null || stored === undefined) return [...API_TOKEN_SCOPES];
  return API_TOKEN_SCOPES.filter((scope) => stored.includes(scope));
}

const WEBHOOK_ENDPOINTS_PATH = '/webhook-endpoints';
const READS_WITH_A_BODY = ['/conversation/status', '/contacts/search', '/broadcasts/preview'];

/**
 * The one rule deciding the scope a business route needs (CONTRACT 9.3): the gateway enforces it
 * and the OpenAPI document states it, so a new route gets its scope from here, never by hand.
 * `path` is the route below `/v1/{slug}`.
 */
export function requiredScopeOf(route: { method: string; path: string }): ApiTokenScope {
  if (route.path === WEBHOOK_ENDPOINTS_PATH || route.path.startsWith(`${WEBHOOK_ENDPOINTS_PATH}/`)) return 'webhooks:manage';
  // The status snapshot, the contact search and the broadcast preview are reads that carry their input in a body.
  if (route.method === 'get' || (route.method === 'post' && READS_WITH_A_BODY.includes(route.path))) return 'conversations:read';
  return 'conversations:write';
}
