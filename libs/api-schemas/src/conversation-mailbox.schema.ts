import { ConversationIdSchema, NamedRefSchema } from './common.schema';
import { ConversationReferenceSchema } from './conversation-reference.schema';
import { objectReferenceSchema } from './object-reference.schema';
import { z } from './zod';

export const MailboxReferenceSchema = objectReferenceSchema('MailboxReference', 'mailbox');
export const MailboxCategoryReferenceSchema = objectReferenceSchema('MailboxCategoryReference', 'mailbox category');

export const MailboxAssignmentRequestSchema = z
  .object({
    conversation: ConversationReferenceSchema,
    mailbox: MailboxReferenceSchema.optional(),
    category: MailboxCategoryReferenceSchema.optional().openapi({ description: 'Moves the conversation to the first mailbox of the category, by name.' }),
  })
  .refine((body) => (body.mailbox === undefined) !== (body.category === undefined), { message: 'exactly one of mailbox or category is required' })
  .openapi('MailboxAssignmentRequest', { oneOf: [{ required: ['mailbox'] }, { required: ['category'] }] });

export const MailboxAssignmentResponseSchema = z
  .object({ conversation: ConversationIdSchema, mailbox: NamedRefSchema.openapi({ description: 'The mailbox the conversation is now in.' }) })
  .openapi('MailboxAssignmentResponse');

export type MailboxAssignmentRequest = z.infer<typeof MailboxAssignmentRequestSchema>;
export type MailboxAssignmentResponse = z.infer<typeof MailboxAssignmentResponseSchema>;
