import type { ErrorCode } from '@cmsg/errors';
import {
  AiEmployeeAssignmentRequestSchema,
  AiEmployeeAssignmentResponseSchema,
  AiUnassignmentRequestSchema,
  AiUnassignmentResponseSchema,
} from './ai-assignment.schema';
import { MailboxAssignmentRequestSchema, MailboxAssignmentResponseSchema } from './conversation-mailbox.schema';
import { CONVERSATION_REFERENCE_ERROR_CODES } from './conversation-reference.schema';
import { TagChangeRequestSchema, TagChangeResponseSchema } from './conversation-tags.schema';
import { definePublicEndpoint, type PublicEndpoint } from './public-endpoint';

/*
 * The individual endpoints of the conversation actions (CONTRACT 5). Each runs the same
 * conversations-service RPC as the matching action of a group; here a desired state that already
 * holds is a 409 (*_ALREADY_ASSIGNED), where a group counts it as a no-op (SPEC 4.3 rule 5).
 */

const REFERENCE_NOTE = 'References to business objects are `{uuid}` or `{name}` (case-insensitive); when both are sent the uuid wins.';

const TAG_RESULTS_DESCRIPTION = `
Every tag reference is judged on its own and the tags that succeed are applied together, in one atomic update.

**Outcome**
- All tags succeed: **200** \`{conversation, tags}\` (the conversation's tags after the change).
- Some succeed and some fail: **207** \`{conversation, tags, results}\`, with one result per requested tag in request order: \`{requested, tag, status, error}\`; \`requested\` echoes the reference, \`tag\` is \`{uuid, name, color}\` or null when it did not resolve, \`status\` is \`assigned\`, \`removed\` or \`failed\`, \`error\` is \`{code, message}\` or null. The successful tags are applied.
- Every tag fails and all for the same code (always the case for a one-tag request): that error's own status and \`{code, message}\`, as any other endpoint answers one error. Nothing changed.
- Every tag fails with different codes: **207** as above (no single status describes it). Nothing changed.

A tag listed twice counts once. ${REFERENCE_NOTE} A tag uuid of another business is \`TAG_BUSINESS_MISMATCH\`. System-managed (default) tags are never changed here.`;

const TAG_LOOKUP_ERRORS = ['TAG_NOT_FOUND', 'TAG_AMBIGUOUS', 'TAG_BUSINESS_MISMATCH', 'UPDATE_FAILED'] as const satisfies readonly ErrorCode[];

export const assignTagsEndpoint = definePublicEndpoint({
  operationId: 'assignConversationTags',
  method: 'post',
  path: '/conversation/tags',
  summary: 'Assign tags to a conversation',
  description: `${TAG_RESULTS_DESCRIPTION} A tag already on the conversation is \`TAG_ALREADY_ASSIGNED\` (409).`,
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'Every tag was assigned. (Some failed: 207, see the description.)',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, ...TAG_LOOKUP_ERRORS, 'TAG_ALREADY_ASSIGNED', 'CANNOT_ASSIGN_DEFAULT_TAG'],
  schemas: { body: TagChangeRequestSchema, response: TagChangeResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, tags: [{ name: 'VIP' }, { uuid: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b' }] } },
});

export const removeTagsEndpoint = definePublicEndpoint({
  operationId: 'removeConversationTags',
  method: 'delete',
  path: '/conversation/tags',
  summary: 'Remove tags from a conversation',
  description: `${TAG_RESULTS_DESCRIPTION} A tag that is not on the conversation is \`TAG_NOT_ASSIGNED\` (404).`,
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'Every tag was removed. (Some failed: 207, see the description.)',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, ...TAG_LOOKUP_ERRORS, 'TAG_NOT_ASSIGNED', 'CANNOT_REMOVE_DEFAULT_TAG'],
  schemas: { body: TagChangeRequestSchema, response: TagChangeResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, tags: [{ name: 'VIP' }] } },
});

export const assignMailboxEndpoint = definePublicEndpoint({
  operationId: 'assignConversationMailbox',
  method: 'post',
  path: '/conversation/mailbox',
  summary: 'Move a conversation to a mailbox, or to the first mailbox of a category',
  description: `Exactly one of \`mailbox\` or \`category\`. A category moves the conversation to its first mailbox by name (case-insensitive); a category without mailboxes is \`NO_MAILBOXES_IN_CATEGORY\`. ${REFERENCE_NOTE} A category uuid of another business is \`CATEGORY_BUSINESS_MISMATCH\`; a mailbox uuid of another business is \`MAILBOX_NOT_FOUND\`. Already in that mailbox: \`MAILBOX_ALREADY_ASSIGNED\` (409), nothing changes.`,
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'The conversation is in the mailbox.',
  errorCodes: [
    ...CONVERSATION_REFERENCE_ERROR_CODES,
    'MAILBOX_NOT_FOUND',
    'AMBIGUOUS_MAILBOX',
    'CATEGORY_NOT_FOUND',
    'AMBIGUOUS_CATEGORY',
    'CATEGORY_BUSINESS_MISMATCH',
    'NO_MAILBOXES_IN_CATEGORY',
    'MAILBOX_ALREADY_ASSIGNED',
  ],
  schemas: { body: MailboxAssignmentRequestSchema, response: MailboxAssignmentResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, mailbox: { name: 'Billing' } } },
});

const SCHEDULE_RULE = `
**Pending scheduled message.** Changing the owner while a scheduled message is pending needs \`scheduled_message_action\`: \`cancel\` cancels it; \`reassign\` keeps it pending for the new owner (an AI employee fires it as an AI schedule; humans fire its fallback template, or the channel's default scheduled template when it has none: none at all is \`TEMPLATE_NOT_FOUND\`, use \`cancel\`). Missing while a schedule is pending: \`SCHEDULED_MESSAGE_ACTION_REQUIRED\`. Any value other than \`reassign\` or \`cancel\` is \`SCHEDULED_MESSAGE_ACTION_INVALID\`, checked first and whether or not a schedule is pending. With no owner change (nothing to do) the field is ignored. A schedule created concurrently is \`SCHEDULE_CONFLICT\`; retry.`;

const OWNER_CHANGE_ERRORS = [
  'SCHEDULED_MESSAGE_ACTION_REQUIRED',
  'SCHEDULED_MESSAGE_ACTION_INVALID',
  'SCHEDULE_CONFLICT',
  'UPDATE_FAILED',
] as const satisfies readonly ErrorCode[];

export const assignAiEmployeeEndpoint = definePublicEndpoint({
  operationId: 'assignConversationAiEmployee',
  method: 'post',
  path: '/conversation/ai-employee',
  summary: 'Assign an AI employee to a conversation, optionally running it',
  description: `${REFERENCE_NOTE} That AI employee already assigned: \`AI_EMPLOYEE_ALREADY_ASSIGNED\` (409), nothing changes and nothing runs.

**run.** With \`run: true\` the AI employee starts on the conversation right after the assignment, asynchronously (as \`/conversation/run-ai\`): \`ai_run\` is \`{status: "processing", error: null}\`. If the run cannot start (for example \`WINDOW_CLOSED\` or \`WALLET_BLOCKED\`), the assignment stays done and the answer is still 200, with \`ai_run: {status: "failed", error: {code, message}}\`. Without \`run\`, \`ai_run\` is null.
${SCHEDULE_RULE}`,
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'The AI employee is assigned.',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, 'AI_EMPLOYEE_NOT_FOUND', 'AMBIGUOUS_AI_EMPLOYEE', 'AI_EMPLOYEE_ALREADY_ASSIGNED', ...OWNER_CHANGE_ERRORS],
  schemas: { body: AiEmployeeAssignmentRequestSchema, response: AiEmployeeAssignmentResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, ai_employee: { name: 'Sofia' }, run: true, scheduled_message_action: 'reassign' } },
});

export const unassignAiEndpoint = definePublicEndpoint({
  operationId: 'unassignConversationAi',
  method: 'post',
  path: '/conversation/unassign-ai',
  summary: 'Remove the AI employee from a conversation (it becomes human-owned)',
  description: `The inbox status does not change (see \`/conversation/human\` for a handoff). With no AI employee assigned it is a no-op answered 200.
${SCHEDULE_RULE}`,
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'No AI employee is assigned.',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, ...OWNER_CHANGE_ERRORS, 'TEMPLATE_NOT_FOUND'],
  schemas: { body: AiUnassignmentRequestSchema, response: AiUnassignmentResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, scheduled_message_action: 'cancel' } },
});

export const handToHumanEndpoint = definePublicEndpoint({
  operationId: 'handConversationToHuman',
  method: 'post',
  path: '/conversation/human',
  summary: 'Hand a conversation to the human team: remove the AI employee and mark it pending',
  description: `Removes the AI employee (if any) and sets the inbox status to \`pending\` (pending reason \`human_handoff\`), broadcasting the status change as \`/conversation/pending\` does. Already human-owned and pending: 200, nothing changes.
${SCHEDULE_RULE}`,
  tag: 'Conversations',
  successStatus: 200,
  successDescription: 'The conversation is human-owned and pending.',
  errorCodes: [...CONVERSATION_REFERENCE_ERROR_CODES, ...OWNER_CHANGE_ERRORS, 'TEMPLATE_NOT_FOUND'],
  schemas: { body: AiUnassignmentRequestSchema, response: AiUnassignmentResponseSchema },
  requestExample: { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' }, scheduled_message_action: 'cancel' } },
});

export const CONVERSATION_ACTION_ENDPOINTS: readonly PublicEndpoint[] = [
  assignTagsEndpoint,
  removeTagsEndpoint,
  assignMailboxEndpoint,
  assignAiEmployeeEndpoint,
  unassignAiEndpoint,
  handToHumanEndpoint,
];
