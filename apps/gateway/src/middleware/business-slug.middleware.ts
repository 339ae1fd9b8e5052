import { CatalogError } from '@cmsg/errors';
import type { RequestHandler } from 'express';
import { authenticatedTokenOf } from '../request-state';

export function isTokenBusinessSlug(pathSlug: string, tokenBusinessSlug: string): boolean {
  return pathSlug.toLowerCase() === tokenBusinessSlug.toLowerCase();
}

/**
 * The `{slug}` of the path must name the token's business, case-insensitively. A slug naming no
 * business is the same 403, so slugs cannot be probed with a valid token (CONTRACT 1).
 */
export function businessSlugMiddleware(): RequestHandler {
  return (req, res, next) => {
    const slug = String(req.params['slug'] ?? '');
    next(isTokenBusinessSlug(slug, authenticatedTokenOf(res).business_slug) ? undefined : new CatalogError('TOKEN_BUSINESS_MISMATCH'));
  };
}
