import { MAX_MESSAGES_PER_SECOND, MIN_MESSAGES_PER_SECOND } from './channel-limits';
import { DateTimeSchema, UuidSchema, nullable } from './common.schema';
import { ContactFilterSchema } from './contact-filter.schema';
import { SendErrorSchema } from './error-body.schema';
import { MAX_TEMPLATE_VARIABLES, TemplateReferenceSchema, TemplateVariableSchema, templateParameterFields } from './message-content.schema';
import { PaginationQuerySchema, pageOf } from './pagination.schema';
import { TemplateCategorySchema } from './template.schema';
import { requiredText } from './text.schema';
import { z } from './zod';

/*
 * Broadcasts (CONTRACT 10.4): one approved template to an audience, at the channel's limits,
 * exactly once per recipient. The request reuses the template send's pieces and the contact
 * filter of POST /contacts/search, so a broadcast validates them as those endpoints do.
 */

export const BROADCAST_STATUSES = ['scheduled', 'preparing', 'running', 'paused', 'completed', 'cancelled', 'failed'] as const;
export const BROADCAST_PAUSE_REASONS = ['manual', 'messaging_limit', 'spam_rate_limit', 'template_not_approved'] as const;
export const BROADCAST_RECIPIENT_STATUSES = ['pending', 'sending', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped', 'unknown'] as const;
export const BROADCAST_SKIP_REASONS = ['duplicate', 'opted_out', 'invalid_phone', 'invalid_row', 'missing_variable', 'cancelled'] as const;
/** What POST /broadcasts/{uuid}/<transition> asks (the RPC's transition names). */
export const BROADCAST_TRANSITIONS = ['pause', 'resume', 'cancel', 'retry_failed'] as const;

export const MAX_BROADCAST_NAME_LENGTH = 200;
export const MAX_BROADCAST_AUDIENCE_CONTACTS = 1000;

export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
export type BroadcastTransition = (typeof BROADCAST_TRANSITIONS)[number];

export const BroadcastStatusSchema = z.enum(BROADCAST_STATUSES).openapi('BroadcastStatus', {
  description:
    '`scheduled` until send_at; `preparing` while the audience is frozen; `running` while it sends; `paused` by a caller or a limit (pause_reason); then `completed` (every recipient final), `cancelled`, or `failed`.',
});

export const BroadcastPauseReasonSchema = z.enum(BROADCAST_PAUSE_REASONS).openapi('BroadcastPauseReason', {
  description:
    '`manual`: POST /broadcasts/{uuid}/pause. `messaging_limit`: the channel reached its messaging limit; it resumes by itself when units free up. `spam_rate_limit`: the provider answered 131048. `template_not_approved`: the provider paused or disabled the template.',
});

export const BroadcastRecipientStatusSchema = z.enum(BROADCAST_RECIPIENT_STATUSES).openapi('BroadcastRecipientStatus', {
  description:
    '`pending` (not sent yet), `sending` (claimed, its call under way), `sent`, then `delivered`, `read`, `replied` (the recipient wrote back within 7 days); `failed` (error says why), `skipped` (reason says why) or `unknown` (the call may have reached the provider before a crash, with no answer recorded: never resent).',
});

export const BroadcastSkipReasonSchema = z.enum(BROADCAST_SKIP_REASONS).openapi('BroadcastSkipReason', {
  description:
    '`duplicate` (the contact is already a recipient), `opted_out`, `invalid_phone`, `invalid_row` (a file row that could not be read), `missing_variable` (a placeholder with no value and no fallback), `cancelled` (pending when the broadcast was cancelled).',
});

const HH_MM = /^(?:[01][0-9]|2[0-3]):[0-5][0-9]$/;

const TimeOfDaySchema = z.string().regex(HH_MM, { message: 'must be HH:MM, 00:00 to 23:59' }).openapi({ pattern: HH_MM.source, example: '09:00' });

export const SendWindowSchema = z
  .strictObject({ from: TimeOfDaySchema, to: TimeOfDaySchema.openapi({ example: '20:00' }) })
  .openapi('BroadcastSendWindow', {
    description: 'Local times of day (HH:MM) in the business time zone: sends wait outside the window.',
  });

export const BroadcastAudienceSchema = z
  .union(
    [
      z.strictObject({ filter: ContactFilterSchema }),
      z.strictObject({
        contacts: z
          .array(UuidSchema)
          .min(1)
          .max(MAX_BROADCAST_AUDIENCE_CONTACTS)
          .openapi({ description: `1 to ${MAX_BROADCAST_AUDIENCE_CONTACTS} contact uuids of the business.` }),
      }),
      z.strictObject({
        file_uuid: UuidSchema.openapi({
          description:
            'A confirmed upload of module broadcast_audiences: text/csv with a header row, or application/x-ndjson; up to 100 MB and 1,000,000 rows, with a `phone` column. Each row upserts its contact as POST /contacts does; the other columns are `{{row.<column>}}`. A bad row is skipped (invalid_row), never the whole file.',
        }),
      }),
    ],
    { error: 'must be exactly one of {filter} (a contact filter), {contacts: [uuid...]} (1 to 1000) or {file_uuid}' },
  )
  .openapi('BroadcastAudience', {
    description:
      'Who receives it, exactly one of: `filter` (the contact filter of POST /contacts/search), `contacts`, or `file_uuid`. Frozen when the broadcast starts: one recipient per contact (duplicate), opted-out contacts skipped (opted_out), bad phones skipped (invalid_phone).',
  });

export const BroadcastVariablesSchema = z
  .array(TemplateVariableSchema)
  .max(MAX_TEMPLATE_VARIABLES)
  .default([])
  .openapi({
    description: [
      "Values of the template's {{1}}..{{n}}, as a template send takes them, except that each value may hold placeholders filled per recipient:",
      '`{{contact.first_name}}`, `{{contact.last_name}}`, `{{contact.attributes.<key>}}`, and `{{row.<column>}}` (file audiences only),',
      'each with an optional fallback after `|`: `{{contact.first_name|there}}`. A recipient whose placeholder is empty and has no fallback is skipped (missing_variable).',
    ].join(' '),
    example: [
      { index: 1, value: '{{contact.first_name|there}}' },
      { index: 2, value: '{{contact.attributes.plan}}' },
    ],
  });

/** POST /broadcasts and POST /broadcasts/preview take the same body. */
export const CreateBroadcastRequestSchema = z
  .object({
    name: requiredText(MAX_BROADCAST_NAME_LENGTH).openapi({ description: 'Yours to recognise it by: 1 to 200 characters, not whitespace only.', example: 'Gold plan renewal, March' }),
    channel: requiredText().openapi({ description: "The public key of the channel it sends from (GET /channels); the template must be this channel's.", example: 'main' }),
    template: TemplateReferenceSchema,
    variables: BroadcastVariablesSchema,
    header: templateParameterFields.header,
    button_parameters: templateParameterFields.button_parameters,
    audience: BroadcastAudienceSchema,
    send_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'When it starts (RFC 3339); omitted or past: now.', example: '2026-03-01T15:00:00Z' }),
    max_per_second: z
      .number()
      .int()
      .min(MIN_MESSAGES_PER_SECOND)
      .max(MAX_MESSAGES_PER_SECOND)
      .optional()
      .openapi({ description: "Sends per second at most for this broadcast, below the channel's max_messages_per_second (never above it)." }),
    send_window: SendWindowSchema.optional(),
  })
  .openapi('CreateBroadcastRequest', {
    description: "The template is named by uuid, or by name and language on the broadcast's channel; it must be approved (TEMPLATE_NOT_APPROVED).",
  });

const count = z.number().int().min(0);

export const BroadcastCountsSchema = z
  .object({
    total: count.openapi({ description: 'Recipients of the frozen audience: always the sum of the others.' }),
    pending: count.openapi({ description: 'Not sent yet (sending included).' }),
    sent: count.openapi({ description: 'Accepted by the provider, not (yet) delivered.' }),
    delivered: count,
    read: count,
    replied: count,
    failed: count,
    skipped: count,
    unknown: count,
  })
  .openapi('BroadcastCounts', { description: 'Recipients of the frozen audience by their latest state, each counted once; zero until sending starts.' });

const SkippedByReasonSchema = z.partialRecord(BroadcastSkipReasonSchema, count).openapi({ description: 'Skipped recipients by reason (reasons with none are left out).', example: { opted_out: 12, duplicate: 3 } });

const FailedByCodeSchema = z
  .record(z.string(), count)
  .openapi({ description: 'Failed recipients by the catalog code of their failure (RECIPIENT_UNDELIVERABLE, SEND_FAILED...).', example: { RECIPIENT_UNDELIVERABLE: 4 } });

export const BroadcastTemplateSchema = z
  .object({ uuid: UuidSchema, name: z.string(), language: z.string().openapi({ example: 'es_MX' }), category: TemplateCategorySchema })
  .openapi('BroadcastTemplate');

export const BroadcastSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    channel: z.string().openapi({ description: "The channel's public key." }),
    template: BroadcastTemplateSchema,
    status: BroadcastStatusSchema,
    pause_reason: nullable(BroadcastPauseReasonSchema).openapi({ description: 'Set while paused; null otherwise.' }),
    send_at: DateTimeSchema,
    started_at: DateTimeSchema.nullable().openapi({ description: 'When sending started (its audience frozen); null before.' }),
    finished_at: DateTimeSchema.nullable().openapi({ description: 'When it became completed, cancelled or failed.' }),
    counts: BroadcastCountsSchema,
    skipped_by_reason: SkippedByReasonSchema,
    failed_by_code: FailedByCodeSchema,
    rate: z
      .object({
        max_per_second: z.number().int().min(0).openapi({ description: "The broadcast's own max_per_second, or the channel's when lower or unset." }),
        current_per_second: z.number().min(0).openapi({ description: 'Sends in the last 10 seconds / 10.' }),
      })
      .openapi('BroadcastRate'),
    send_window: nullable(SendWindowSchema),
    created_at: DateTimeSchema,
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .openapi({ description: 'Why a `failed` broadcast failed (its audience could not be frozen: the file unreadable, the channel gone, or freezing kept failing for 10 minutes); null otherwise.' }),
  })
  .openapi('Broadcast', { description: 'Counts are refreshed every second while it prepares or runs, and exact once it is final.' });

export const BroadcastPreviewSchema = z
  .object({
    total: count.openapi({ description: 'Recipients the audience would have if frozen now, skipped ones included.' }),
    skipped_by_reason: SkippedByReasonSchema,
    messaging_limit_remaining: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({ description: "Units left in the channel's messaging limit now; null when the limit is unlimited." }),
    estimated_seconds: count.openapi({ description: "An estimate of how long sending would take at the broadcast's rate." }),
  })
  .openapi('BroadcastPreview');

export const BroadcastParamsSchema = z.object({ uuid: UuidSchema.openapi({ param: { description: 'The broadcast uuid.' } }) });

export const BroadcastListQuerySchema = PaginationQuerySchema.extend({ status: BroadcastStatusSchema.optional() });

export const BroadcastListResponseSchema = pageOf(BroadcastSchema, 'BroadcastList');

export const BroadcastRecipientSchema = z
  .object({
    contact: z.object({
      uuid: UuidSchema.nullable().openapi({ description: 'Null when the recipient has no contact (a file row skipped before its contact was upserted).' }),
      phone: z.string().nullable().openapi({ description: 'E.164 with a leading +, as frozen.', example: '+5215512345678' }),
    }),
    status: BroadcastRecipientStatusSchema,
    reason: nullable(BroadcastSkipReasonSchema).openapi({ description: 'Skipped recipients only.' }),
    error: nullable(SendErrorSchema).openapi({ description: 'Failed recipients only.' }),
    message: nullable(z.object({ uuid: UuidSchema })).openapi({ description: 'The message sent to the recipient, in its conversation (timeline, statuses, message.* events).' }),
    sent_at: DateTimeSchema.nullable(),
  })
  .openapi('BroadcastRecipient');

export const BroadcastRecipientListQuerySchema = PaginationQuerySchema.extend({ status: BroadcastRecipientStatusSchema.optional() });

export const BroadcastRecipientListResponseSchema = pageOf(BroadcastRecipientSchema, 'BroadcastRecipientList');

export type CreateBroadcastRequest = z.infer<typeof CreateBroadcastRequestSchema>;
export type BroadcastAudience = z.infer<typeof BroadcastAudienceSchema>;
export type BroadcastBody = z.infer<typeof BroadcastSchema>;
export type BroadcastCounts = z.infer<typeof BroadcastCountsSchema>;
export type BroadcastPreviewBody = z.infer<typeof BroadcastPreviewSchema>;
export type BroadcastRecipientBody = z.infer<typeof BroadcastRecipientSchema>;
export type BroadcastListQuery = z.infer<typeof BroadcastListQuerySchema>;
export type BroadcastRecipientListQuery = z.infer<typeof BroadcastRecipientListQuerySchema>;
