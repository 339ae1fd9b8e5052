import { grantedScopesOf } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import { type ApiTokenEntity, type BusinessEntity, type BusinessScope, businessScope } from '@cmsg/dal';
import type { AuthenticatedToken } from '@cmsg/proto';

export type StoredApiToken = Pick<ApiTokenEntity, '_id' | 'business_id' | 'revoked' | 'scopes'>;

/** What authentication reads (ApiTokenRepository and BusinessRepository in the app). */
export interface TokenAuthenticationPorts {
  apiTokens: { findByHashAcrossBusinesses(tokenSha256: string): Promise<StoredApiToken | null> };
  businesses: { findById(scope: BusinessScope): Promise<Pick<BusinessEntity, 'slug'> | null> };
}

/** SPEC 5: a token is known by its SHA-256 only; unknown and revoked look the same to the caller. */
export async function authenticateToken(ports: TokenAuthenticationPorts, tokenSha256: string): Promise<AuthenticatedToken> {
  const token = await ports.apiTokens.findByHashAcrossBusinesses(tokenSha256);
  if (!token || token.revoked) throw new CatalogError('INVALID_API_TOKEN');
  const business = await ports.businesses.findById(businessScope(token.business_id));
  if (!business) throw new CatalogError('INVALID_API_TOKEN');
  return { business_id: token.business_id, business_slug: business.slug, token_uuid: token._id, scopes: grantedScopesOf(token.scopes) };
}
