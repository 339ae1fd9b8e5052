import { grantedScopesOf } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import { businessScope } from '@cmsg/dal';
import type { AuthenticatedToken } from '@cmsg/proto';
import { repositories } from '../repositories';

/** SPEC 5: a token is known by its SHA-256 only; unknown and revoked look the same to the caller. */
export async function authenticateToken(tokenSha256: string): Promise<AuthenticatedToken> {
  const token = await repositories.apiTokens.findByHashAcrossBusinesses(tokenSha256);
  if (!token || token.revoked) throw new CatalogError('INVALID_API_TOKEN');
  const business = await repositories.businesses.findById(businessScope(token.business_id));
  if (!business) throw new CatalogError('INVALID_API_TOKEN');
  return { business_id: token.business_id, business_slug: business.slug, token_uuid: token._id, scopes: grantedScopesOf(token.scopes) };
}
