import { CatalogError } from '@cmsg/errors';
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@cmsg/platform/redis';
import {
  IDEMPOTENCY_IN_PROGRESS_LEASE_SECONDS,
  IDEMPOTENCY_REPLAY_TTL_SECONDS,
  type IdempotencyClaim,
  type IdempotencyClaimHandle,
  type IdempotencyScope,
  type IdempotencyStore,
  type StoredResponse,
} from './idempotency-store';

type StoredRecord =
  | { state: 'in_progress'; fingerprint: string; claim_id: string }
  | { state: 'completed'; fingerprint: string; response: StoredResponse };

// Compare-and-set on the exact in-progress value: only the claim's owner settles it, even if its
// lease ran out and another request claimed the key meanwhile.
const COMPLETE_IF_OWNED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end return false`;
const RELEASE_IF_OWNED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

const CLAIM_ATTEMPTS = 3;
/** Keys read per SCAN page and per MGET when forgetting responses. */
const FORGET_SCAN_BATCH = 500;

function unavailable(cause: unknown): CatalogError {
  return new CatalogError('SERVICE_UNAVAILABLE', 'The idempotency store is unavailable; retry with backoff.', { cause });
}

/** Idempotency keys in Redis, shared by every gateway replica: `idem:<token uuid>:<key>`. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyPrefix = 'idem',
  ) {}

  async claim(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyClaim> {
    const key = `${this.keyPrefix}:${scope.tokenUuid}:${scope.key}`;
    const inProgress = JSON.stringify({ state: 'in_progress', fingerprint, claim_id: randomUUID() } satisfies StoredRecord);
    try {
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        if ((await this.redis.set(key, inProgress, { NX: true, EX: IDEMPOTENCY_IN_PROGRESS_LEASE_SECONDS })) === 'OK') {
          return { outcome: 'claimed', handle: this.handleFor(key, inProgress, fingerprint) };
        }
        const existing = await this.redis.get(key);
        if (existing !== null) {
          const record = JSON.parse(existing) as StoredRecord;
          return record.state === 'completed'
            ? { outcome: 'completed', fingerprint: record.fingerprint, response: record.response }
            : { outcome: 'in_progress', fingerprint: record.fingerprint };
        }
        // Released between SET NX and GET: claim again.
      }
    } catch (error) {
      throw unavailable(error);
    }
    throw new CatalogError('IDEMPOTENCY_REQUEST_IN_PROGRESS', undefined, { retryAfterSeconds: 1 });
  }

  async forgetResponsesMentioning(needles: readonly string[]): Promise<number> {
    if (needles.length === 0) return 0;
    let forgotten = 0;
    let batch: string[] = [];
    const forgetBatch = async (): Promise<void> => {
      const values = await this.redis.mGet(batch);
      const mentioning = batch.filter((_, index) => needles.some((needle) => values[index]?.includes(needle)));
      if (mentioning.length > 0) forgotten += await this.redis.del(mentioning);
      batch = [];
    };
    try {
      // Every key of the store: an erasure is rare, and keys live one day.
      for await (const key of this.redis.scanIterator({ MATCH: `${this.keyPrefix}:*`, COUNT: FORGET_SCAN_BATCH })) {
        batch.push(key);
        if (batch.length >= FORGET_SCAN_BATCH) await forgetBatch();
      }
      if (batch.length > 0) await forgetBatch();
    } catch (error) {
      throw unavailable(error);
    }
    return forgotten;
  }

  private handleFor(key: string, inProgress: string, fingerprint: string): IdempotencyClaimHandle {
    return {
      complete: async (response: StoredResponse) => {
        const completed = JSON.stringify({ state: 'completed', fingerprint, response } satisfies StoredRecord);
        await this.redis.eval(COMPLETE_IF_OWNED, { keys: [key], arguments: [inProgress, completed, String(IDEMPOTENCY_REPLAY_TTL_SECONDS)] });
      },
      release: async () => {
        await this.redis.eval(RELEASE_IF_OWNED, { keys: [key], arguments: [inProgress] });
      },
    };
  }
}
