import type { BusinessScope } from '@cmsg/dal';
import type { StoredApiToken, TokenAuthenticationPorts } from '../api-tokens/authenticate-token.usecase';

/** The tokens (by hash, across businesses) and the businesses (by id) authentication reads. */
export class InMemoryTokenAuthentication implements TokenAuthenticationPorts {
  readonly tokens = new Map<string, StoredApiToken>();
  readonly businessSlugs = new Map<string, string>();

  readonly apiTokens = { findByHashAcrossBusinesses: async (tokenSha256: string) => this.tokens.get(tokenSha256) ?? null };

  readonly businesses = {
    findById: async (scope: BusinessScope) => {
      const slug = this.businessSlugs.get(scope.businessId);
      return slug === undefined ? null : { slug };
    },
  };
}
