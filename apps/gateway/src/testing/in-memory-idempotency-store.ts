import type { IdempotencyClaim, IdempotencyScope, IdempotencyStore, StoredResponse } from '../idempotency/idempotency-store';

type MemoryRecord = { state: 'in_progress'; fingerprint: string; claimId: number } | { state: 'completed'; fingerprint: string; response: StoredResponse };

/** Same contract as RedisIdempotencyStore, in one process, without expiry: for unit tests. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, MemoryRecord>();
  private nextClaimId = 1;

  async forgetResponsesMentioning(needles: readonly string[]): Promise<number> {
    let forgotten = 0;
    for (const [key, record] of this.records) {
      if (record.state !== 'completed') continue;
      const body = JSON.stringify(record.response.body);
      if (needles.some((needle) => body.includes(needle))) {
        this.records.delete(key);
        forgotten += 1;
      }
    }
    return forgotten;
  }

  async claim(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyClaim> {
    const key = `${scope.tokenUuid}:${scope.key}`;
    const existing = this.records.get(key);
    if (existing?.state === 'completed') return { outcome: 'completed', fingerprint: existing.fingerprint, response: existing.response };
    if (existing) return { outcome: 'in_progress', fingerprint: existing.fingerprint };
    const claimId = this.nextClaimId++;
    this.records.set(key, { state: 'in_progress', fingerprint, claimId });
    const owns = () => {
      const current = this.records.get(key);
      return current?.state === 'in_progress' && current.claimId === claimId;
    };
    return {
      outcome: 'claimed',
      handle: {
        complete: async (response) => {
          if (owns()) this.records.set(key, { state: 'completed', fingerprint, response });
        },
        release: async () => {
          if (owns()) this.records.delete(key);
        },
      },
    };
  }
}
