import type { ErrorCode } from '@cmsg/errors';
import { UuidSchema } from './common.schema';
import { z } from './zod';
import { requiredText } from './text.schema';

const members = {
  uuid: UuidSchema.optional().openapi({ description: 'Internal conversation id.' }),
  chat_user_id: requiredText().optional().openapi({ description: 'Opaque platform user id of the contact; exact match.' }),
  username: requiredText()
    .optional()
    .openapi({ description: 'Public username, with or without a leading @; case-insensitive; last username seen.' }),
  phone: requiredText().optional().openapi({ description: 'E.164 phone; reduced to digits before lookup.' }),
  channel: requiredText().optional().openapi({ description: 'Channel public key; limits the lookup to that channel.' }),
};

/** Resolution precedence of the reference members (SPEC 2.1); the service applies it. */
const RESOLVING_MEMBERS = ['uuid', 'chat_user_id', 'username', 'phone'] as const;
const STATUS_RESOLVING_MEMBERS = ['uuid', 'chat_user_id', 'phone'] as const;

function hasAnyOf(required: readonly string[]) {
  return (reference: Record<string, unknown>) => required.some((member) => reference[member] !== undefined);
}

function referenceDocs(required: readonly string[]) {
  const names = required.join(', ');
  return {
    message: `one of ${names} is required`,
    openapi: {
      description: `Identifies a conversation of the token's business: at least one of ${names}; when several are sent the first in that order wins.`,
      anyOf: required.map((member) => ({ required: [member] })),
    },
  };
}

const referenceRules = referenceDocs(RESOLVING_MEMBERS);
export const ConversationReferenceSchema = z
  .object(members)
  .refine(hasAnyOf(RESOLVING_MEMBERS), { message: referenceRules.message })
  .openapi('ConversationReference', referenceRules.openapi);

/** The status endpoint does not resolve by username (SPEC 4.5); a username sent there is ignored. */
const statusReferenceRules = referenceDocs(STATUS_RESOLVING_MEMBERS);
export const StatusConversationReferenceSchema = z
  .object({ uuid: members.uuid, chat_user_id: members.chat_user_id, phone: members.phone, channel: members.channel })
  .refine(hasAnyOf(STATUS_RESOLVING_MEMBERS), { message: statusReferenceRules.message })
  .openapi('StatusConversationReference', statusReferenceRules.openapi);

export type ConversationReference = z.infer<typeof ConversationReferenceSchema>;
export type StatusConversationReference = z.infer<typeof StatusConversationReferenceSchema>;

/** What resolving a reference can answer (SPEC 2.1, CONTRACT 2). */
export const CONVERSATION_REFERENCE_ERROR_CODES = [
  'CONVERSATION_NOT_FOUND',
  'CHANNEL_NOT_FOUND',
  'PHONE_NUMBER_AMBIGUOUS',
  'USERNAME_AMBIGUOUS',
] as const satisfies readonly ErrorCode[];

export const STATUS_REFERENCE_ERROR_CODES = [
  'CONVERSATION_NOT_FOUND',
  'CHANNEL_NOT_FOUND',
  'PHONE_NUMBER_AMBIGUOUS',
] as const satisfies readonly ErrorCode[];
