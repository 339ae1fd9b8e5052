import {
  type AiEmployeeAssignmentResponse,
  type AiUnassignmentResponse,
  InboxStatusSchema,
  type MailboxAssignmentResponse,
  type TagChangeMultiStatus,
  type TagChangeResponse,
  type TagChangeResult,
  TagChangeResultStatusSchema,
} from '@cmsg/api-schemas';
import { CatalogError, isErrorCode } from '@cmsg/errors';
import type {
  AssignAiEmployeeResponse,
  AssignMailboxResponse,
  ChangeTagsResponse,
  ErrorDetail,
  TagChangeResult as ProtoTagChangeResult,
  UnassignAiResponse,
} from '@cmsg/proto';
import { StatusResponse } from '../routes/business-route';
import { mapOrNull, publicEnumValue, requiredField, toNamedRef, toTag } from './upstream-fields';

/** The error a tag change reported, as the catalog error it is (an unknown code is an upstream bug: 500). */
function catalogErrorOf(detail: ErrorDetail): CatalogError {
  if (!isErrorCode(detail.code)) throw new Error(`Upstream tag result has unknown error code ${JSON.stringify(detail.code)}`);
  return new CatalogError(detail.code, detail.message);
}

function toTagChangeResult(result: ProtoTagChangeResult): TagChangeResult {
  const requested = requiredField(result.requested, 'results.requested');
  return {
    requested: { ...(requested.uuid ? { uuid: requested.uuid } : {}), ...(requested.name ? { name: requested.name } : {}) },
    tag: mapOrNull(result.tag, toTag),
    status: publicEnumValue(TagChangeResultStatusSchema.options, result.status, 'results.status'),
    error: mapOrNull(result.error, (error) => catalogErrorOf(error).toBody()),
  };
}

/**
 * The outcome rule of /conversation/tags (written in the endpoint description): all applied 200;
 * all failed for one code: that error itself; anything else 207 with one result per tag.
 */
export function toTagChangeOutcome(response: ChangeTagsResponse): TagChangeResponse | StatusResponse<TagChangeMultiStatus> {
  const conversation = { uuid: requiredField(response.conversation, 'conversation').uuid };
  const tags = response.tags.map(toTag);
  const failures = response.results.filter((result) => result.status === 'failed');
  if (failures.length === 0) return { conversation, tags };
  const errors = failures.map((failure) => requiredField(failure.error, 'results.error'));
  if (failures.length === response.results.length && new Set(errors.map((error) => error.code)).size === 1) throw catalogErrorOf(errors[0]!);
  return new StatusResponse(207, { conversation, tags, results: response.results.map(toTagChangeResult) });
}

export function toMailboxAssignmentResponse(response: AssignMailboxResponse): MailboxAssignmentResponse {
  return { conversation: { uuid: requiredField(response.conversation, 'conversation').uuid }, mailbox: toNamedRef(requiredField(response.mailbox, 'mailbox')) };
}

/** Whether the AI run asked for with `run: true` started; null when it was not asked for. */
export type AiRunStart = { status: 'processing' } | { status: 'failed'; error: CatalogError } | null;

export function toAiEmployeeAssignmentResponse({ assignment, aiRun }: { assignment: AssignAiEmployeeResponse; aiRun: AiRunStart }): AiEmployeeAssignmentResponse {
  return {
    conversation: { uuid: requiredField(assignment.conversation, 'conversation').uuid },
    ai_employee: toNamedRef(requiredField(assignment.ai_employee, 'ai_employee')),
    ai_run: aiRun && { status: aiRun.status, error: aiRun.status === 'failed' ? aiRun.error.toBody() : null },
  };
}

export function toAiUnassignmentResponse(response: UnassignAiResponse): AiUnassignmentResponse {
  return {
    conversation: { uuid: requiredField(response.conversation, 'conversation').uuid },
    ai_employee: null,
    inbox_status: publicEnumValue(InboxStatusSchema.options, response.inbox_status, 'inbox_status'),
  };
}
