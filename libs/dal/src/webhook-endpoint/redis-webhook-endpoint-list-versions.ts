import { randomUUID } from 'node:crypto';
import { CatalogError } from '@cmsg/errors';
import { withTimeout } from '@cmsg/platform';
import type { RedisClient } from '@cmsg/platform/redis';
import type { BusinessScope } from '../shared/business-scope';
import type { WebhookEndpointListVersions } from './webhook-endpoint-list-versions';

/**
 * A version lives this long after its last bump or first read, so the keys of businesses that went
 * quiet go away. An expired version is made anew, which its readers take for a change (one reload).
 */
const VERSION_TTL_MS = 24 * 3_600_000;
/** Redis answers these commands in well under a millisecond; one that does not answer in this long is taken for unavailable. */
export const VERSION_ANSWER_TIMEOUT_MS = 500;

/**
 * Versions in Redis, shared by every process and replica: each version is a new random value, so a
 * version lost with Redis's data (a restart without AOF, an eviction, the TTL) is never made again
 * and no process can take a list it cached under it for current.
 */
export class RedisWebhookEndpointListVersions implements WebhookEndpointListVersions {
  constructor(
    private readonly redis: Pick<RedisClient, 'get' | 'set'>,
    private readonly answerTimeoutMs = VERSION_ANSWER_TIMEOUT_MS,
  ) {}

  async bump(scope: BusinessScope): Promise<void> {
    try {
      await this.answered(this.redis.set(versionKey(scope), randomUUID(), { PX: VERSION_TTL_MS }));
    } catch (error) {
      throw new CatalogError(
        'SERVICE_UNAVAILABLE',
        'Redis is unavailable, so the services that keep webhook endpoint lists in memory cannot be told of this change; retry with backoff.',
        { cause: error },
      );
    }
  }

  async current(scope: BusinessScope): Promise<string> {
    const key = versionKey(scope);
    const stored = await this.answered(this.redis.get(key));
    if (stored !== null) return stored;
    // Never bumped, expired or lost: a new version, which no process has cached a list under.
    const fresh = randomUUID();
    if ((await this.answered(this.redis.set(key, fresh, { NX: true, PX: VERSION_TTL_MS }))) === 'OK') return fresh;
    const concurrent = await this.answered(this.redis.get(key));
    if (concurrent === null) throw new Error(`the webhook endpoint list version of business ${scope.businessId} vanished as it was made`);
    return concurrent;
  }

  /** A Redis that holds the connection without answering (paused, overloaded) must not hold the caller longer than this. */
  private answered<T>(command: Promise<T>): Promise<T> {
    return withTimeout(command, this.answerTimeoutMs, `Redis did not answer within ${this.answerTimeoutMs} ms`);
  }
}

function versionKey(scope: BusinessScope): string {
  return `webhook-endpoint-list:${scope.businessId}:version`;
}
