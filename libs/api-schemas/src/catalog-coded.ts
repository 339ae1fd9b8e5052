import type { ErrorCode } from '@cmsg/errors';
import type { z } from 'zod';

/**
 * A validation rule whose failure answers with the catalog's own code (e.g. SCHEDULED_MESSAGE_ACTION_INVALID,
 * INVALID_FILE_TYPE) instead of INVALID_REQUEST: the rule is in the schema, so the OpenAPI document
 * says exactly what is accepted, and the client still gets the specific code. Spread into a
 * refine's options: `.refine(check, { message, ...catalogCoded('INVALID_FILE_TYPE') })`.
 */
export function catalogCoded(code: ErrorCode): { params: { catalogCode: ErrorCode } } {
  return { params: { catalogCode: code } };
}

/** The catalog code a failed rule carries, if it is one of those. */
export function catalogCodeOf(issue: z.core.$ZodIssue): ErrorCode | undefined {
  return issue.code === 'custom' ? (issue.params?.['catalogCode'] as ErrorCode | undefined) : undefined;
}
