import { catalogCoded } from './catalog-coded';
import { ConversationIdSchema, InboxStatusSchema, NamedRefSchema, nullable } from './common.schema';
import { ConversationReferenceSchema } from './conversation-reference.schema';
import { ErrorBodySchema } from './error-body.schema';
import { objectReferenceSchema } from './object-reference.schema';
import { z } from './zod';

export const AiEmployeeReferenceSchema = objectReferenceSchema('AiEmployeeReference', 'AI employee');

const SCHEDULED_MESSAGE_ACTIONS = ['reassign', 'cancel'] as const;

/**
 * reassign | cancel, or null (= not sent). Another value is the catalog's own
 * SCHEDULED_MESSAGE_ACTION_INVALID (CONTRACT 3), not a generic INVALID_REQUEST.
 */
export const ScheduledMessageActionSchema = z
  .string()
  .nullable()
  .optional()
  .refine((value) => value === null || value === undefined || (SCHEDULED_MESSAGE_ACTIONS as readonly string[]).includes(value), {
    message: 'must be reassign or cancel',
    ...catalogCoded('SCHEDULED_MESSAGE_ACTION_INVALID'),
  })
  .transform((value) => value ?? undefined)
  .openapi({
    type: ['string', 'null'],
    enum: [...SCHEDULED_MESSAGE_ACTIONS, null],
    description:
      'What happens to the pending scheduled message when the owner changes: `cancel` cancels it; `reassign` keeps it for the new owner (another AI employee fires it; humans fire its fallback template). Required while a schedule is pending (400 SCHEDULED_MESSAGE_ACTION_REQUIRED), ignored otherwise; any other value is 400 SCHEDULED_MESSAGE_ACTION_INVALID. null is the same as not sending it.',
  });

export const AiEmployeeAssignmentRequestSchema = z
  .object({
    conversation: ConversationReferenceSchema,
    ai_employee: AiEmployeeReferenceSchema,
    run: z.boolean().default(false).openapi({ description: 'Run the AI employee right after the assignment (asynchronously).' }),
    scheduled_message_action: ScheduledMessageActionSchema,
  })
  .openapi('AiEmployeeAssignmentRequest');

export const AiRunStatusSchema = z.enum(['processing', 'failed']).openapi('AiRunStatus');

export const AiEmployeeAssignmentResponseSchema = z
  .object({
    conversation: ConversationIdSchema,
    ai_employee: NamedRefSchema.openapi({ description: 'The AI employee now assigned.' }),
    ai_run: nullable(
      z
        .object({
          status: AiRunStatusSchema,
          error: nullable(ErrorBodySchema).openapi({ description: 'Why the run could not start; null unless status is failed.' }),
        })
        .openapi('AiRunStart'),
    ).openapi({ description: 'null unless run was true.' }),
  })
  .openapi('AiEmployeeAssignmentResponse');

export const AiUnassignmentRequestSchema = z
  .object({ conversation: ConversationReferenceSchema, scheduled_message_action: ScheduledMessageActionSchema })
  .openapi('AiUnassignmentRequest');

export const AiUnassignmentResponseSchema = z
  .object({
    conversation: ConversationIdSchema,
    ai_employee: z.null().openapi({ description: 'Always null: the conversation is human-owned.' }),
    inbox_status: InboxStatusSchema,
  })
  .openapi('AiUnassignmentResponse');

export type AiEmployeeAssignmentRequest = z.infer<typeof AiEmployeeAssignmentRequestSchema>;
export type AiEmployeeAssignmentResponse = z.infer<typeof AiEmployeeAssignmentResponseSchema>;
export type AiUnassignmentRequest = z.infer<typeof AiUnassignmentRequestSchema>;
export type AiUnassignmentResponse = z.infer<typeof AiUnassignmentResponseSchema>;
