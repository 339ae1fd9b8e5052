import { createHash, randomBytes } from 'node:crypto';

/** CONTRACT 1: `cmsg_` and exactly 64 lowercase hex characters. */
export const API_TOKEN_PATTERN = /^cmsg_[0-9a-f]{64}$/;

export function isWellFormedApiToken(token: string): boolean {
  return API_TOKEN_PATTERN.test(token);
}

/** Tokens are stored only as this hash; the plaintext is shown once, when it is created. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateApiToken(): string {
  return `cmsg_${randomBytes(32).toString('hex')}`;
}
