/** A response as it is replayed: status, JSON body and the headers that belong to it. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Keys are per API token: two tokens never see each other's keys. */
export interface IdempotencyScope {
  tokenUuid: string;
  key: string;
}

/** The first request with a key owns it until it completes it (stored for replay) or releases it. */
export interface IdempotencyClaimHandle {
  complete(response: StoredResponse): Promise<void>;
  release(): Promise<void>;
}

export type IdempotencyClaim =
  | { outcome: 'claimed'; handle: IdempotencyClaimHandle }
  | { outcome: 'in_progress'; fingerprint: string }
  | { outcome: 'completed'; fingerprint: string; response: StoredResponse };

/** Implemented on Redis (shared by every replica) and in memory for unit tests. */
export interface IdempotencyStore {
  claim(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyClaim>;
  /**
   * Drops every stored response whose body mentions one of these strings (a contact's erasure:
   * CONTRACT 10.1), of every token: a later request with such a key runs again. Answers how many.
   */
  forgetResponsesMentioning(needles: readonly string[]): Promise<number>;
}

/** How long a completed response is replayed (CONTRACT 1). */
export const IDEMPOTENCY_REPLAY_TTL_SECONDS = 24 * 60 * 60;

/**
 * How long an unfinished claim blocks its key. Longer than any request can run (an AI run has a
 * 300 s budget), short enough that a replica dying mid-request does not block retries for a day.
 */
export const IDEMPOTENCY_IN_PROGRESS_LEASE_SECONDS = 10 * 60;
