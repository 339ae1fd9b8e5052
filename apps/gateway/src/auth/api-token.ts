import { createHash } from 'node:crypto';

const API_TOKEN_PATTERN = /^cmsg_[0-9a-f]{64}$/;

/**
 * The token of an `Authorization: Bearer <token>` header when it has the issued format
 * (`cmsg_` + 64 lowercase hex, CONTRACT 1); undefined otherwise, so a malformed token never
 * costs a lookup. The scheme name is case-insensitive (RFC 9110 11.1), the token is not.
 */
export function bearerApiTokenOf(authorizationHeader: string | undefined): string | undefined {
  if (authorizationHeader === undefined) return undefined;
  const match = /^([A-Za-z]+) +(\S+)$/.exec(authorizationHeader);
  if (!match || match[1].toLowerCase() !== 'bearer') return undefined;
  const token = match[2];
  return API_TOKEN_PATTERN.test(token) ? token : undefined;
}

/** Tokens are stored only as this hash (CONTRACT 1). */
export function apiTokenSha256(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
