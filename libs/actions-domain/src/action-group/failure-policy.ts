import { type CatalogError, type ErrorCode, isErrorCode } from '@cmsg/errors';

/**
 * SPEC 4.3 rule 6: server-side failures hand the conversation to a human when escalate_on_error
 * is true. Client-input errors (*_NOT_FOUND, *_AMBIGUOUS, WINDOW_CLOSED, TEMPLATE_*...), the
 * provider's recipient outcomes (RECIPIENT_UNDELIVERABLE, MARKETING_LIMIT_REACHED,
 * CONTACT_OPTED_OUT, RECIPIENT_IN_EXPERIMENT: CONTRACT 10.3) and billing guards (WALLET_BLOCKED,
 * VISION_WALLET_BLOCKED) never escalate.
 */
export const ESCALATING_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'SEND_FAILED',
  'PREPARE_FAILED',
  'AI_EXECUTION_FAILED',
  'ACTIONS_DEPTH_EXCEEDED',
  'UPDATE_FAILED',
  'NO_AI_EMPLOYEE_ASSIGNED',
]);

export function isEscalatingCode(code: string): boolean {
  return isErrorCode(code) && ESCALATING_CODES.has(code);
}

/**
 * A dependency that did not answer (unreachable, deadline): the action's outcome is unknown, so it
 * is not recorded; the command is retried and the action re-run with the same operation id.
 */
export function isTransientFailure(error: CatalogError): boolean {
  return error.code === 'SERVICE_UNAVAILABLE';
}

/** Public error code of a result an RPC reported as a string. */
export function errorCodeOf(code: string): ErrorCode {
  return isErrorCode(code) ? code : 'UNKNOWN_ERROR';
}
