import { ensureIndexes } from '@cmsg/dal';

/** The indexes the scheduler's queries use (declared in @cmsg/dal beside every other collection's; creating them is idempotent). */
export function ensureSchedulingIndexes(): Promise<void> {
  return ensureIndexes();
}
