import { CatalogError } from '@cmsg/errors';
import { ApiTokenModel, BusinessModel } from '@cmsg/dal';
import type { AuthenticatedToken } from '@cmsg/proto';

/** SPEC 5: a token is known by its SHA-256 only; unknown and revoked look the same to the caller. */
export async function authenticateToken(tokenSha256: string): Promise<AuthenticatedToken> {
  const token = await ApiTokenModel.findOne({ token_sha256: tokenSha256 }, { business_id: 1, revoked: 1 }).lean<{
    _id: string;
    business_id: string;
    revoked: boolean;
  }>();
  if (!token || token.revoked) throw new CatalogError('INVALID_API_TOKEN');
  const business = await BusinessModel.findById(token.business_id, { slug: 1 }).lean<{ slug: string }>();
  if (!business) throw new CatalogError('INVALID_API_TOKEN');
  return { business_id: token.business_id, business_slug: business.slug, token_uuid: token._id };
}
