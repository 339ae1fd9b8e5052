import { DateTimeSchema, InboxStatusSchema, UuidSchema, nullable } from './common.schema';
import { SendErrorSchema } from './error-body.schema';
import { z } from './zod';

/**
 * The items of a conversation's timeline (CONTRACT 9.1): its messages, notes and events. The
 * message and note items are also the `data` of the message and note webhook events, and an event
 * item's `data` is the `data` of the matching conversation event (CONTRACT 9.2), so both are
 * defined here once.
 */

export const TimelineAuthorSchema = z
  .object({
    type: z.enum(['customer', 'ai_employee', 'api_token', 'human', 'system']),
    uuid: UuidSchema.nullable().openapi({ description: 'The contact, AI employee or API token; null for humans and the system.' }),
    name: z.string().nullable(),
  })
  .openapi('TimelineAuthor', { description: 'Who wrote or caused the item.' });

export const MessageMediaSchema = z
  .object({
    file_uuid: UuidSchema.nullable().openapi({ description: 'null while inbound media is not stored yet.' }),
    mime_type: z.string(),
    transcription: z.string().nullable().openapi({ description: 'What the AI reads instead of the media (image description, speech to text).' }),
  })
  .openapi('MessageMedia');

export const MessagePricingSchema = z
  .object({
    category: z.string().nullable().openapi({ description: 'The conversation category the platform charged (marketing, utility, authentication, service, ...).' }),
    billable: z.boolean().nullable(),
    pricing_model: z.string().nullable().openapi({ description: 'The platform\'s pricing model, e.g. PMP (per message) or CBP.' }),
  })
  .openapi('MessagePricing', { description: 'The `pricing` of the chat platform\'s status webhook, as it sent it.' });

export const TimelineMessageStatusSchema = z
  .enum(['queued', 'sent', 'delivered', 'read', 'failed', 'received'])
  .openapi('TimelineMessageStatus', { description: 'Outbound: queued, sent, delivered, read or failed; inbound: received.' });

export const TimelineMessageItemSchema = z
  .object({
    uuid: UuidSchema.openapi({ description: 'The message uuid.' }),
    kind: z.literal('message'),
    created_at: DateTimeSchema,
    author: TimelineAuthorSchema,
    direction: z.enum(['inbound', 'outbound']),
    content_type: z.string().openapi({ description: 'text, image, audio, video, document, template, quick_reply, ...' }),
    body: z.string().nullable(),
    media: nullable(MessageMediaSchema),
    status: TimelineMessageStatusSchema,
    error: nullable(SendErrorSchema).openapi({ description: 'Why the send failed; null unless status is failed.' }),
    pricing: nullable(MessagePricingSchema).openapi({ description: 'Outbound: how the chat platform prices the message, from its status webhook; null until one carries it, and inbound.' }),
  })
  .openapi('TimelineMessageItem');

export const TimelineNoteItemSchema = z
  .object({
    uuid: UuidSchema,
    kind: z.literal('note'),
    created_at: DateTimeSchema,
    author: TimelineAuthorSchema,
    note: z.string(),
  })
  .openapi('TimelineNoteItem');

export const InboxStatusChangedDataSchema = z
  .object({
    from: InboxStatusSchema,
    to: InboxStatusSchema,
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why it went pending: marked_pending, human_handoff or action_set_failed; null when resolved.' }),
  })
  .openapi('InboxStatusChangedData');

export const ConversationOwnerSchema = z
  .object({
    type: z.enum(['ai_employee', 'human']),
    uuid: UuidSchema.nullable().openapi({ description: 'The AI employee; null for the human team.' }),
    name: z.string().nullable(),
  })
  .openapi('ConversationOwner');

export const AssignmentChangedDataSchema = z
  .object({ from: nullable(ConversationOwnerSchema), to: nullable(ConversationOwnerSchema) })
  .openapi('AssignmentChangedData');

export const MailboxPlacementSchema = z.object({ type: z.literal('mailbox'), uuid: UuidSchema, name: z.string() }).openapi('MailboxPlacement');

export const MailboxChangedDataSchema = z
  .object({ from: nullable(MailboxPlacementSchema), to: nullable(MailboxPlacementSchema) })
  .openapi('MailboxChangedData');

export const TagsChangedDataSchema = z
  .object({ added: z.array(UuidSchema).openapi({ description: 'Tag uuids.' }), removed: z.array(UuidSchema).openapi({ description: 'Tag uuids.' }) })
  .openapi('TagsChangedData');

export const ScheduleEventDataSchema = z.object({ scheduled_message_uuid: UuidSchema }).openapi('ScheduleEventData');

export const ActionGroupEscalatedDataSchema = z
  .object({ action_group_uuid: UuidSchema, reason: z.string().openapi({ description: 'The error code that escalated the group.' }) })
  .openapi('ActionGroupEscalatedData');

/** The `event` of a timeline event item, and the `data` each one carries. */
export const TIMELINE_EVENT_DATA = {
  inbox_status_changed: InboxStatusChangedDataSchema,
  assignment_changed: AssignmentChangedDataSchema,
  tags_changed: TagsChangedDataSchema,
  mailbox_changed: MailboxChangedDataSchema,
  schedule_created: ScheduleEventDataSchema,
  schedule_cancelled: ScheduleEventDataSchema,
  schedule_fired: ScheduleEventDataSchema,
  action_group_escalated: ActionGroupEscalatedDataSchema,
} as const;

export type TimelineEventName = keyof typeof TIMELINE_EVENT_DATA;
export const TIMELINE_EVENT_NAMES = Object.keys(TIMELINE_EVENT_DATA) as TimelineEventName[];

function timelineEventItem<Name extends TimelineEventName>(name: Name) {
  return z.object({
    uuid: UuidSchema,
    kind: z.literal('event'),
    created_at: DateTimeSchema,
    author: TimelineAuthorSchema,
    event: z.literal(name),
    data: TIMELINE_EVENT_DATA[name],
  });
}

export const TimelineEventItemSchema = z
  .discriminatedUnion('event', [
    timelineEventItem('inbox_status_changed'),
    timelineEventItem('assignment_changed'),
    timelineEventItem('tags_changed'),
    timelineEventItem('mailbox_changed'),
    timelineEventItem('schedule_created'),
    timelineEventItem('schedule_cancelled'),
    timelineEventItem('schedule_fired'),
    timelineEventItem('action_group_escalated'),
  ])
  .openapi('TimelineEventItem');

export const TimelineItemSchema = z
  .union([TimelineMessageItemSchema, TimelineNoteItemSchema, TimelineEventItemSchema])
  .openapi('TimelineItem', { description: 'A message, a note or an event of the conversation, told apart by kind.' });

export type TimelineAuthor = z.infer<typeof TimelineAuthorSchema>;
export type TimelineMessageItem = z.infer<typeof TimelineMessageItemSchema>;
export type TimelineNoteItem = z.infer<typeof TimelineNoteItemSchema>;
export type TimelineEventItem = z.infer<typeof TimelineEventItemSchema>;
export type TimelineItem = z.infer<typeof TimelineItemSchema>;
