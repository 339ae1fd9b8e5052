import { assertUnreachable, CatalogError } from '@cmsg/errors';
import { type MessageContentInput, type ObjectReference, TEMPLATE_HEADER_TYPES, type TemplateSendInput } from '@cmsg/message-codec';
import type { ConversationReference } from '../conversation/conversation-resolver';

// The content of a send is defined with its codec (libs/message-codec), shared with the transports.
export { TEMPLATE_HEADER_TYPES } from '@cmsg/message-codec';
export type {
  MessageContentInput,
  ObjectReference,
  TemplateButtonParameterInput,
  TemplateHeaderInput,
  TemplateHeaderType,
  TemplateReference,
  TemplateSendInput,
  TemplateVariableInput,
} from '@cmsg/message-codec';

/** SPEC 8: free-form text and media transcriptions. */
export const MAX_TEXT_LENGTH = 4096;
export const MAX_TRANSCRIPTION_LENGTH = 4096;
/** The longest operation id kept (action group uuid + index, or an Idempotency-Key-sized id). */
export const MAX_OPERATION_ID_LENGTH = 255;

export const MESSAGE_AUTHOR_TYPES = ['api_token', 'ai_employee', 'system'] as const;
export type MessageAuthorType = (typeof MESSAGE_AUTHOR_TYPES)[number];

export interface MessageAuthor {
  type: MessageAuthorType;
  uuid: string | null;
}

export interface SendMessageCommand {
  conversation: ConversationReference;
  /** A repeated operation never sends twice (SendMessageRequest.operation_id). */
  operationId: string;
  author: MessageAuthor;
  content: MessageContentInput;
  /** Set for a broadcast recipient's send: it waits behind live traffic, under the broadcast's own rate. */
  broadcast?: { uuid: string; maxPerSecond: number };
}

/**
 * Builds a command that is valid whoever sends it (gateway, actions-runner, scheduler): shape
 * problems are INVALID_REQUEST here; rules that need stored data are the use case's.
 */
export function sendMessageCommand(input: SendMessageCommand): SendMessageCommand {
  const problems: string[] = [];
  const operationId = input.operationId.trim();
  if (!operationId || operationId.length > MAX_OPERATION_ID_LENGTH) problems.push(`operation_id: 1 to ${MAX_OPERATION_ID_LENGTH} characters`);
  if (!(MESSAGE_AUTHOR_TYPES as readonly string[]).includes(input.author.type)) problems.push(`author.type: one of ${MESSAGE_AUTHOR_TYPES.join(', ')}`);
  checkContent(input.content, problems);
  if (problems.length > 0) throw new CatalogError('INVALID_REQUEST', `Invalid request: ${problems.join('; ')}.`);
  return { ...input, operationId };
}

function checkContent(content: MessageContentInput, problems: string[]): void {
  switch (content.kind) {
    case 'text':
      checkLength(content.text, 'text', 1, MAX_TEXT_LENGTH, problems);
      return;
    case 'file':
      if (!content.file_uuid) problems.push('file.file_uuid: required');
      if (content.caption !== undefined) checkLength(content.caption, 'file.caption', 1, MAX_TEXT_LENGTH, problems);
      if (content.transcription !== undefined) checkLength(content.transcription, 'file.transcription', 0, MAX_TRANSCRIPTION_LENGTH, problems);
      return;
    case 'quick_reply':
      checkObjectReference(content.quick_reply, 'quick_reply', problems);
      return;
    case 'template':
      checkTemplate(content.template, 'template', problems);
      return;
    case 'quick_reply_or_template':
      checkObjectReference(content.quick_reply, 'quick_reply', problems);
      checkTemplate(content.template, 'template', problems);
      return;
    default:
      assertUnreachable(content, unsupportedContent);
  }
}

function checkLength(value: string, field: string, min: number, max: number, problems: string[]): void {
  if (value.length < min || value.length > max) problems.push(`${field}: ${min} to ${max} characters`);
}

function checkObjectReference(reference: ObjectReference, field: string, problems: string[]): void {
  if (!reference.uuid && !reference.name) problems.push(`${field}: uuid or name required`);
}

/** Emptiness of values is TEMPLATE_VARIABLES_INVALID (SPEC 7), checked against the template later. */
function checkTemplate(input: TemplateSendInput, field: string, problems: string[]): void {
  const { template } = input;
  if (!template.uuid && !(template.name && template.language)) problems.push(`${field}.template: uuid, or name and language, required`);
  for (const variable of input.variables) {
    if (!Number.isInteger(variable.index) || variable.index < 1) problems.push(`${field}.variables: index is an integer >= 1`);
  }
  const header = input.header;
  if (header) {
    if (!(TEMPLATE_HEADER_TYPES as readonly string[]).includes(header.type)) problems.push(`${field}.header.type: one of ${TEMPLATE_HEADER_TYPES.join(', ')}`);
    else if (header.type === 'text' && !header.value) problems.push(`${field}.header.value: required for a text header`);
    else if (header.type !== 'text' && !header.file_uuid) problems.push(`${field}.header.file_uuid: required for a ${header.type} header`);
    if (header.transcription !== undefined) checkLength(header.transcription, `${field}.header.transcription`, 0, MAX_TRANSCRIPTION_LENGTH, problems);
  }
  for (const parameter of input.button_parameters) {
    if (!Number.isInteger(parameter.index) || parameter.index < 0) problems.push(`${field}.button_parameters: index is an integer >= 0`);
    if (parameter.sub_type !== 'url') problems.push(`${field}.button_parameters: sub_type is url`);
  }
}

/** A content kind the types rule out but the request carried anyway. */
export function unsupportedContent(value: unknown): CatalogError {
  return new CatalogError('INVALID_REQUEST', `Invalid request: unsupported content ${JSON.stringify(value)}.`);
}
