import { DateTimeSchema, UuidSchema, nullable } from './common.schema';
import { ConversationReferenceSchema } from './conversation-reference.schema';
import {
  MAX_TEMPLATE_BUTTON_PARAMETERS,
  MAX_TEMPLATE_VARIABLES,
  MessageTextSchema,
  TemplateButtonParameterSchema,
  TemplateHeaderSchema,
  TemplateVariableSchema,
  TranscriptionSchema,
} from './message-content.schema';
import { z } from './zod';
import { requiredText } from './text.schema';

/** SPEC 8: the reason an AI schedule gives its employee. */
export const MAX_SCHEDULE_REASON_LENGTH = 500;

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(value: string): boolean {
  const match = LOCAL_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const ScheduleAtSchema = z
  .object({
    date: z
      .string()
      .regex(LOCAL_DATE, 'must match YYYY-MM-DD')
      .refine(isCalendarDate, 'is not a calendar date')
      .openapi({ format: 'date', example: '2026-03-08' }),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must match HH:MM, 24 h (00:00 to 23:59)')
      .openapi({ example: '09:30' }),
  })
  .openapi('ScheduleAt', {
    description:
      'A local date and time in the business time zone. A time that does not exist there (skipped by a daylight-saving change) is INVALID_REQUEST; one that occurs twice is the earlier instant.',
  });

const commonFields = {
  conversation: ConversationReferenceSchema,
  scheduled_uuid: UuidSchema.optional().openapi({
    description: 'Client-generated id of the schedule; generated when omitted. An id used before, by any request, is 409 SCHEDULE_CONFLICT, permanently.',
  }),
  schedule_at: ScheduleAtSchema,
  cancel_on_customer_reply: z.boolean().default(false).openapi({ description: 'Beyond the spec: a customer message before the firing time cancels the schedule.' }),
};

export const AiScheduleRequestSchema = z
  .object({
    executor_kind: z.literal('ai_employee'),
    ...commonFields,
    reason: requiredText(MAX_SCHEDULE_REASON_LENGTH).openapi({ description: 'Injected into the conversation as a context note when the schedule fires.' }),
    ai_employee_uuid: UuidSchema.nullable().optional().openapi({ description: 'Null or omitted: the AI assigned to the conversation; given, it must be that one (OWNER_MISMATCH).' }),
    template_uuid: UuidSchema.nullable().optional().openapi({
      description: "Approved template sent instead of the AI reply when the 24 h window is closed at firing; omitted: the channel's default scheduled template.",
    }),
  })
  .openapi('AiScheduleRequest');

export const ScheduledMediaSchema = z
  .object({ file_uuid: UuidSchema, transcription: TranscriptionSchema.nullable().optional() })
  .openapi('ScheduledMedia', { description: 'A confirmed upload (module api_messages).' });

export const ScheduledQuickReplyPayloadSchema = z.object({ kind: z.literal('quick_reply'), quick_reply_uuid: UuidSchema }).openapi('ScheduledQuickReplyPayload');

export const ScheduledTemplatePayloadSchema = z
  .object({
    kind: z.literal('template'),
    template_uuid: UuidSchema,
    variables: z.array(TemplateVariableSchema).max(MAX_TEMPLATE_VARIABLES),
    header: TemplateHeaderSchema.optional(),
    button_parameters: z.array(TemplateButtonParameterSchema).max(MAX_TEMPLATE_BUTTON_PARAMETERS).optional(),
  })
  .openapi('ScheduledTemplatePayload');

export const ScheduledTextPayloadSchema = z
  .object({ kind: z.literal('message'), text: MessageTextSchema.nullable().optional(), media: ScheduledMediaSchema.nullable().optional() })
  .refine((payload) => (payload.text ?? null) !== null || (payload.media ?? null) !== null, { message: 'text or media is required' })
  .openapi('ScheduledTextPayload', {
    description: 'A text, a file (with the text as its caption), or both.',
    anyOf: [
      { required: ['text'], properties: { text: { type: 'string' } } },
      { required: ['media'], properties: { media: { type: 'object' } } },
    ],
  });

export const ScheduledPayloadSchema = z
  .discriminatedUnion('kind', [ScheduledQuickReplyPayloadSchema, ScheduledTemplatePayloadSchema, ScheduledTextPayloadSchema])
  .openapi('ScheduledPayload', { description: 'What is sent while the 24 h window is open at firing, by kind (must equal message_kind).' });

export const SCHEDULED_MESSAGE_KINDS = ['quick_reply', 'template', 'message'] as const;

const TEMPLATE_REQUIRED_MESSAGE = 'TEMPLATE_REQUIRED: template_uuid is required on the human_user branch (the window may close before firing)';

export const HumanScheduleRequestSchema = z
  .object({
    executor_kind: z.literal('human_user'),
    ...commonFields,
    message_kind: z.enum(SCHEDULED_MESSAGE_KINDS),
    payload: ScheduledPayloadSchema,
    template_uuid: z
      .guid({ error: (issue) => (issue.input === undefined || issue.input === null ? TEMPLATE_REQUIRED_MESSAGE : undefined) })
      .openapi({ format: 'uuid', description: 'Approved template sent instead when the 24 h window is closed at firing. Missing: INVALID_REQUEST (TEMPLATE_REQUIRED).' }),
    template_variables: z.array(TemplateVariableSchema).max(MAX_TEMPLATE_VARIABLES).default([]),
    template_header: TemplateHeaderSchema.optional(),
    template_button_parameters: z.array(TemplateButtonParameterSchema).max(MAX_TEMPLATE_BUTTON_PARAMETERS).default([]),
  })
  .refine((request) => request.message_kind === request.payload.kind, { path: ['payload', 'kind'], message: 'must equal message_kind' })
  .openapi('HumanScheduleRequest', {
    oneOf: SCHEDULED_MESSAGE_KINDS.map((kind) => ({ properties: { message_kind: { const: kind }, payload: { properties: { kind: { const: kind } } } } })),
  });

export const CreateScheduledMessageRequestSchema = z
  .discriminatedUnion('executor_kind', [AiScheduleRequestSchema, HumanScheduleRequestSchema])
  .openapi('CreateScheduledMessageRequest');

export const ExecutorKindSchema = z.enum(['ai_employee', 'human_user']).openapi('ScheduleExecutorKind');

export const CreateScheduledMessageResponseSchema = z
  .object({
    data: z.object({
      uuid: UuidSchema,
      executor_kind: ExecutorKindSchema,
      schedule_at: DateTimeSchema.openapi({ description: 'UTC (Z).' }),
      status: z.literal('pending'),
    }),
  })
  .openapi('CreateScheduledMessageResponse');

export const ScheduledMessageStatusSchema = z
  .enum(['pending', 'cancelled', 'sent', 'failed'])
  .openapi('ScheduledMessageStatus', { description: 'pending until it fires (fired_at set while it is being sent), then sent or failed; or cancelled.' });

const ActorSchema = z.object({ type: z.string(), uuid: z.string().nullable() });

export const ScheduleHistoryEntrySchema = z
  .object({
    at: DateTimeSchema,
    event: z.string().openapi({ description: 'created, cancelled, reassigned, fired, note_added, sending, sent or failed.' }),
    status: ScheduledMessageStatusSchema,
    reason: z.string().nullable(),
    actor: ActorSchema.nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi('ScheduleHistoryEntry');

export const ScheduledMessageSchema = z
  .object({
    uuid: UuidSchema,
    conversation: z.object({ uuid: UuidSchema }),
    executor_kind: ExecutorKindSchema,
    status: ScheduledMessageStatusSchema,
    schedule_at: DateTimeSchema,
    schedule_local: nullable(z.object({ date: z.string(), time: z.string(), time_zone: z.string() })),
    is_tester: z.boolean().openapi({ description: 'Tester schedules fire on the business virtual clock.' }),
    cancel_on_customer_reply: z.boolean(),
    ai_employee_uuid: z.string().nullable(),
    reason: z.string().nullable(),
    template_uuid: z.string().nullable(),
    message_kind: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()).nullable(),
    template_variables: z.array(TemplateVariableSchema),
    template_header: z.record(z.string(), z.unknown()).nullable(),
    template_button_parameters: z.array(TemplateButtonParameterSchema),
    author: ActorSchema,
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    history: z.array(ScheduleHistoryEntrySchema),
    fired_at: DateTimeSchema.nullable(),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .openapi('ScheduledMessage');

export const ScheduledMessageParamsSchema = z.object({ uuid: UuidSchema.openapi({ param: { description: 'The scheduled message uuid.' } }) });

export type CreateScheduledMessageRequest = z.infer<typeof CreateScheduledMessageRequestSchema>;
export type AiScheduleRequest = z.infer<typeof AiScheduleRequestSchema>;
export type HumanScheduleRequest = z.infer<typeof HumanScheduleRequestSchema>;
export type ScheduledPayload = z.infer<typeof ScheduledPayloadSchema>;
export type CreateScheduledMessageResponse = z.infer<typeof CreateScheduledMessageResponseSchema>;
export type ScheduledMessageView = z.infer<typeof ScheduledMessageSchema>;
