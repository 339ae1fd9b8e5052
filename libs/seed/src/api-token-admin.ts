import { randomUUID } from 'node:crypto';
import { API_TOKEN_SCOPES, type ApiTokenScope, grantedScopesOf, isApiTokenScope } from '@cmsg/api-schemas';
import { type ApiTokenRepository, type BusinessRepository, businessScope } from '@cmsg/dal';
import { generateApiToken, hashApiToken, isWellFormedApiToken } from './api-token';

/*
 * Operator-side token management (the admin CLI). The plaintext exists only in the return value
 * of createApiToken; the database keeps its SHA-256.
 */

export type ApiTokenAdminErrorCode = 'BUSINESS_NOT_FOUND' | 'TOKEN_NOT_FOUND' | 'TOKEN_UUID_TAKEN' | 'MALFORMED_TOKEN' | 'INVALID_SCOPES';

export class ApiTokenAdminError extends Error {
  constructor(
    readonly code: ApiTokenAdminErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiTokenAdminError';
  }
}

export interface CreatedApiToken {
  uuid: string;
  token: string;
  business: { uuid: string; slug: string };
  scopes: ApiTokenScope[];
  created_at: Date;
}

export interface ApiTokenListing {
  uuid: string;
  scopes: ApiTokenScope[];
  created_at: Date;
  revoked: boolean;
  revoked_at: Date | null;
}

export interface RevokedApiToken {
  uuid: string;
  business_uuid: string;
  revoked_at: Date;
  /** True when the token had been revoked before this call (nothing changed). */
  already_revoked: boolean;
}

export type ApiTokenReference = { uuid: string } | { token: string };

/** The collections token administration reads and writes, built once by the caller (the admin CLI). */
export interface ApiTokenAdminStores {
  businesses: Pick<BusinessRepository, 'findBySlug'>;
  apiTokens: Pick<ApiTokenRepository, 'create' | 'revoke' | 'listOfBusiness'>;
}

export interface ApiTokenOptions {
  uuid?: string;
  /** What the token may do (CONTRACT 9.3); all three when not given. */
  scopes?: readonly string[];
}

export async function createApiToken(stores: ApiTokenAdminStores, businessSlug: string, options: ApiTokenOptions = {}): Promise<CreatedApiToken> {
  const uuid = options.uuid ?? randomUUID();
  const scopes = validScopes(options.scopes ?? API_TOKEN_SCOPES);
  const business = await findBusiness(stores, businessSlug);
  const token = generateApiToken();
  const createdAt = new Date();
  if (!(await stores.apiTokens.create(businessScope(business._id), { id: uuid, tokenSha256: hashApiToken(token), scopes, createdAt }))) {
    throw new ApiTokenAdminError('TOKEN_UUID_TAKEN', `a token with uuid ${uuid} already exists`);
  }
  return { uuid, token, business: { uuid: business._id, slug: business.slug }, scopes, created_at: createdAt };
}

/** The scopes once each, in catalog order; an unknown name or none at all is refused. */
function validScopes(scopes: readonly string[]): ApiTokenScope[] {
  const unknown = scopes.filter((scope) => !isApiTokenScope(scope));
  if (unknown.length > 0 || scopes.length === 0) {
    const problem = unknown.length > 0 ? `unknown scope ${unknown.join(', ')}` : 'a token needs at least one scope';
    throw new ApiTokenAdminError('INVALID_SCOPES', `${problem} (scopes: ${API_TOKEN_SCOPES.join(', ')})`);
  }
  return API_TOKEN_SCOPES.filter((scope) => scopes.includes(scope));
}

/** Idempotent: revoking a revoked token reports it and keeps the first revocation time. */
export async function revokeApiToken(stores: ApiTokenAdminStores, reference: ApiTokenReference): Promise<RevokedApiToken> {
  if ('token' in reference && !isWellFormedApiToken(reference.token)) {
    throw new ApiTokenAdminError('MALFORMED_TOKEN', 'a token is cmsg_ followed by 64 lowercase hex characters');
  }
  const revokedAt = new Date();
  const stored = await stores.apiTokens.revoke('uuid' in reference ? { id: reference.uuid } : { tokenSha256: hashApiToken(reference.token) }, revokedAt);
  if (!stored) {
    throw new ApiTokenAdminError('TOKEN_NOT_FOUND', 'uuid' in reference ? `no token with uuid ${reference.uuid}` : 'no such token');
  }
  const storedRevokedAt = stored.revoked_at ?? revokedAt;
  return { uuid: stored._id, business_uuid: stored.business_id, revoked_at: storedRevokedAt, already_revoked: storedRevokedAt.getTime() !== revokedAt.getTime() };
}

export async function listApiTokens(stores: ApiTokenAdminStores, businessSlug: string): Promise<ApiTokenListing[]> {
  const business = await findBusiness(stores, businessSlug);
  const tokens = await stores.apiTokens.listOfBusiness(businessScope(business._id));
  return tokens.map((token) => ({
    uuid: token._id,
    scopes: grantedScopesOf(token.scopes),
    created_at: token.created_at,
    revoked: token.revoked,
    revoked_at: token.revoked_at ?? null,
  }));
}

async function findBusiness(stores: ApiTokenAdminStores, slug: string): Promise<{ _id: string; slug: string }> {
  const business = await stores.businesses.findBySlug(slug);
  if (!business) throw new ApiTokenAdminError('BUSINESS_NOT_FOUND', `no business with slug ${slug}`);
  return business;
}
