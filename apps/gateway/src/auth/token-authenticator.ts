import type { AuthenticateTokenRequest, AuthenticatedToken } from '@cmsg/proto';
import { apiTokenSha256 } from './api-token';

export interface TokenLookup {
  authenticateToken(request: AuthenticateTokenRequest): Promise<AuthenticatedToken>;
}

interface CachedToken {
  token: AuthenticatedToken;
  expiresAt: number;
}

/** Bounds memory if many distinct valid tokens pass through one replica. */
const MAX_CACHED_TOKENS = 10_000;

/**
 * Resolves a well-formed token to its business through the conversations service. Successes are
 * cached per replica for a short TTL (so a revocation is honoured within TTL + one lookup);
 * failures are never cached, so a fixed or newly issued token works at once.
 */
export class TokenAuthenticator {
  private readonly cache = new Map<string, CachedToken>();

  constructor(
    private readonly lookup: TokenLookup,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(token: string): Promise<AuthenticatedToken> {
    const tokenSha256 = apiTokenSha256(token);
    const cached = this.cache.get(tokenSha256);
    if (cached && cached.expiresAt > this.now()) return cached.token;
    this.cache.delete(tokenSha256);
    const authenticated = await this.lookup.authenticateToken({ token_sha256: tokenSha256 });
    this.remember(tokenSha256, authenticated);
    return authenticated;
  }

  private remember(tokenSha256: string, token: AuthenticatedToken): void {
    if (this.ttlMs <= 0) return;
    if (this.cache.size >= MAX_CACHED_TOKENS) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(tokenSha256, { token, expiresAt: this.now() + this.ttlMs });
  }
}
