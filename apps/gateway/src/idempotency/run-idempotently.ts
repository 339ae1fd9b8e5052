import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { Logger } from '@cmsg/platform';
import type { IdempotencyClaimHandle, IdempotencyScope, IdempotencyStore, StoredResponse } from './idempotency-store';

export interface IdempotentOutcome {
  response: StoredResponse;
  replayed: boolean;
}

/** A client error the handler raised is an answer worth replaying; a 5xx is not. */
function storableErrorResponse(error: unknown): StoredResponse | undefined {
  if (!isCatalogError(error) || error.httpStatus >= 500) return undefined;
  const headers: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
  return { status: error.httpStatus, body: error.toBody(), headers };
}

async function settle(handle: IdempotencyClaimHandle, response: StoredResponse | undefined, logger: Logger): Promise<void> {
  try {
    await (response && response.status < 500 ? handle.complete(response) : handle.release());
  } catch (error) {
    // The client still gets its answer; the key stays claimed until its lease ends.
    logger.warn({ err: error }, 'could not settle idempotency key');
  }
}

/**
 * Runs `execute` at most once per (token, key): a finished response is replayed for the same
 * request, another request under the key is 409 IDEMPOTENCY_KEY_REUSED, and the same request
 * while the first still runs is 409 IDEMPOTENCY_REQUEST_IN_PROGRESS. Server errors release the
 * key so a retry can run.
 */
export async function runIdempotently(
  store: IdempotencyStore,
  scope: IdempotencyScope,
  fingerprint: string,
  execute: () => Promise<StoredResponse>,
  logger: Logger,
): Promise<IdempotentOutcome> {
  const claim = await store.claim(scope, fingerprint);
  if (claim.outcome !== 'claimed') {
    if (claim.fingerprint !== fingerprint) throw new CatalogError('IDEMPOTENCY_KEY_REUSED');
    if (claim.outcome === 'in_progress') throw new CatalogError('IDEMPOTENCY_REQUEST_IN_PROGRESS', undefined, { retryAfterSeconds: 1 });
    return { response: claim.response, replayed: true };
  }
  let response: StoredResponse;
  try {
    response = await execute();
  } catch (error) {
    await settle(claim.handle, storableErrorResponse(error), logger);
    throw error;
  }
  await settle(claim.handle, response, logger);
  return { response, replayed: false };
}
