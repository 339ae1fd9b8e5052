import { CatalogError, type ErrorCode } from '@cmsg/errors';

/**
 * What an already-holding desired state means (proto AlreadyInStatePolicy): the individual
 * endpoints answer 409 `*_ALREADY_ASSIGNED` (CONTRACT 5), an action of a group counts it as a
 * successful no-op (SPEC 4.3 rule 5).
 */
export type AlreadyInStatePolicy = 'conflict' | 'noop';

/** Under `conflict` throws `code`; under `noop` returns normally so the caller answers noop. */
export function whenAlreadyInState(policy: AlreadyInStatePolicy, code: ErrorCode, message?: string): void {
  if (policy === 'conflict') throw new CatalogError(code, message);
}
