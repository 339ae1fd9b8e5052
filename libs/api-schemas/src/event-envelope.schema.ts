import { ContactConsentChangedDataSchema, ContactCreatedDataSchema, ContactErasedDataSchema, ContactUpdatedDataSchema } from './contact-event-data.schema';
import { ACTION_TYPES } from './action-objects.schema';
import { ActionGroupStatusSchema, ActionStatusSchema } from './action-group.schema';
import { BroadcastCountsSchema } from './broadcast.schema';
import { ContactSummarySchema, ConversationIdSchema, DateTimeSchema, UuidSchema, nullable } from './common.schema';
import { ErrorBodySchema } from './error-body.schema';
import {
  AssignmentChangedDataSchema,
  InboxStatusChangedDataSchema,
  MailboxChangedDataSchema,
  TagsChangedDataSchema,
  TimelineMessageItemSchema,
  TimelineNoteItemSchema,
} from './timeline-item.schema';
import { z } from './zod';

/**
 * The public events (CONTRACT 9.2): what a webhook delivery carries and what GET /events answers,
 * one envelope `{id, type, created_at, business, conversation, sequence, data}` per type.
 */

export const ConversationCreatedDataSchema = z
  .object({
    contact: ContactSummarySchema,
    channel: z.object({ public_key: z.string() }),
    is_tester: z.boolean(),
  })
  .openapi('ConversationCreatedData');

export const ScheduledMessageEventDataSchema = z.object({ scheduled_message_uuid: UuidSchema }).openapi('ScheduledMessageEventData');

export const ScheduledMessageFailedDataSchema = z
  .object({ scheduled_message_uuid: UuidSchema, error: ErrorBodySchema })
  .openapi('ScheduledMessageFailedData');

/** As section 4's webhooks sent it before the envelope existed: receivers of those keep working. */
export const ActionFailedDataSchema = z
  .object({
    action_group: z.object({ uuid: UuidSchema }),
    conversation: ConversationIdSchema,
    action: z.object({ index: z.number().int().min(0), type: z.enum(ACTION_TYPES as [string, ...string[]]), error: ErrorBodySchema }),
  })
  .openapi('ActionFailedData');

export const ActionGroupFinishedDataSchema = z
  .object({
    action_group: z.object({
      uuid: UuidSchema,
      status: ActionGroupStatusSchema,
      escalated: z.boolean(),
      actions: z.array(
        z.object({
          index: z.number().int().min(0),
          type: z.enum(ACTION_TYPES as [string, ...string[]]),
          status: ActionStatusSchema,
          error: nullable(ErrorBodySchema),
        }),
      ),
      created_at: DateTimeSchema,
      finished_at: DateTimeSchema.nullable(),
    }),
    conversation: ConversationIdSchema,
  })
  .openapi('ActionGroupFinishedData');

export const PingDataSchema = z.object({}).openapi('PingData', { description: 'Always empty.' });

/** CONTRACT 10.4: the same data for each change of a broadcast's course. */
export const BroadcastEventDataSchema = z
  .object({
    broadcast: z.object({ uuid: UuidSchema, name: z.string() }),
    counts: BroadcastCountsSchema,
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'On broadcast.paused, the pause_reason (manual, messaging_limit, spam_rate_limit, template_not_approved); null when there is nothing to add.' }),
  })
  .openapi('BroadcastEventData', { description: 'Read the whole broadcast with GET /broadcasts/{uuid}.' });

/** Every public event type and the schema of its `data`. */
export const EVENT_DATA = {
  'message.received': TimelineMessageItemSchema,
  'message.sent': TimelineMessageItemSchema,
  'message.status_updated': TimelineMessageItemSchema,
  'conversation.created': ConversationCreatedDataSchema,
  'conversation.inbox_status_changed': InboxStatusChangedDataSchema,
  'conversation.assignment_changed': AssignmentChangedDataSchema,
  'conversation.tags_changed': TagsChangedDataSchema,
  'conversation.mailbox_changed': MailboxChangedDataSchema,
  'note.created': TimelineNoteItemSchema,
  'scheduled_message.sent': ScheduledMessageEventDataSchema,
  'scheduled_message.failed': ScheduledMessageFailedDataSchema,
  'scheduled_message.cancelled': ScheduledMessageEventDataSchema,
  'action.failed': ActionFailedDataSchema,
  'action_group.finished': ActionGroupFinishedDataSchema,
  'contact.created': ContactCreatedDataSchema,
  'contact.updated': ContactUpdatedDataSchema,
  'contact.consent_changed': ContactConsentChangedDataSchema,
  'contact.erased': ContactErasedDataSchema,
  'broadcast.started': BroadcastEventDataSchema,
  'broadcast.paused': BroadcastEventDataSchema,
  'broadcast.completed': BroadcastEventDataSchema,
  ping: PingDataSchema,
} as const;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as [EventType, ...EventType[]];
export const EventTypeSchema = z.enum(EVENT_TYPES).openapi('EventType');

/** What each type is about, for the document. */
const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'message.received': 'A customer message arrived. data: its timeline item.',
  'message.sent': 'An outbound message was accepted by the channel provider (or simulated, on a tester conversation). data: its timeline item.',
  'message.status_updated': 'The provider reported a new status of an outbound message (delivered, read, failed). data: its timeline item.',
  'conversation.created': 'A new contact wrote, or a tester contact was created, and the conversation exists.',
  'conversation.inbox_status_changed': 'The conversation went pending or resolved.',
  'conversation.assignment_changed': 'The AI employee owning the conversation changed, or it went to the human team.',
  'conversation.tags_changed': 'Tags were added to or removed from the conversation.',
  'conversation.mailbox_changed': 'The conversation moved to another mailbox.',
  'note.created': 'An internal note was added. data: its timeline item.',
  'scheduled_message.sent': 'A scheduled message fired and was sent.',
  'scheduled_message.failed': 'A scheduled message fired and could not be sent.',
  'scheduled_message.cancelled': 'A pending scheduled message was cancelled (replaced, cancelled by request, by an owner change or by a customer reply).',
  'action.failed': 'An action of an action group failed in the background.',
  'action_group.finished': 'Every action of an action group has a result.',
  'contact.created': 'A contact was created through the API (POST /contacts, POST /conversations). data: its uuid; read it with GET /contacts/{uuid}.',
  'contact.updated': 'Fields of a contact changed. data: its uuid and the names of the fields that changed.',
  'contact.consent_changed': 'A consent category of the contact changed (by the API, a keyword the customer sent, or the provider).',
  'contact.erased': 'The contact was erased: every personal datum is gone. data: its uuid only.',
  'broadcast.started': 'A broadcast started: its audience is frozen and sending begins. Not about one conversation: conversation null, sequence 0.',
  'broadcast.paused': 'A broadcast paused, by a caller or a limit (reason). Not about one conversation: conversation null, sequence 0.',
  'broadcast.completed': 'Every recipient of a broadcast has a final state; counts are exact. Not about one conversation: conversation null, sequence 0.',
  ping: 'Sent by POST /webhook-endpoints/{uuid}/ping to that endpoint only, whatever it subscribes to.',
};

export const EventBusinessSchema = z.object({ slug: z.string() }).openapi('EventBusiness');

/** Events about no one conversation: `conversation` is null and `sequence` 0 (CONTRACT 9.2, 10.4). */
export const EVENT_TYPES_WITHOUT_CONVERSATION = ['ping', 'broadcast.started', 'broadcast.paused', 'broadcast.completed'] as const satisfies readonly EventType[];

function envelopeOf<Type extends EventType>(type: Type) {
  const withoutConversation = (EVENT_TYPES_WITHOUT_CONVERSATION as readonly EventType[]).includes(type);
  return z
    .object({
      id: UuidSchema.openapi({ description: 'Unique, the same on every delivery of this event (the webhook-id header, a delivery\'s event_id).' }),
      type: z.literal(type),
      created_at: DateTimeSchema,
      business: EventBusinessSchema,
      conversation: withoutConversation ? z.null() : ConversationIdSchema,
      sequence: withoutConversation
        ? z.literal(0)
        : z
            .number()
            .int()
            .min(1)
            .max(Number.MAX_SAFE_INTEGER)
            .openapi({ description: "Increases with each event of the conversation (not necessarily by 1): order what arrives out of order, drop what you already have." }),
      data: EVENT_DATA[type] as (typeof EVENT_DATA)[Type],
    })
    .openapi(`${componentNameOf(type)}Event`, { description: EVENT_DESCRIPTIONS[type] });
}

/** `conversation.tags_changed` -> `ConversationTagsChanged` */
export function componentNameOf(type: EventType): string {
  return type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export const EVENT_ENVELOPES = {
  'message.received': envelopeOf('message.received'),
  'message.sent': envelopeOf('message.sent'),
  'message.status_updated': envelopeOf('message.status_updated'),
  'conversation.created': envelopeOf('conversation.created'),
  'conversation.inbox_status_changed': envelopeOf('conversation.inbox_status_changed'),
  'conversation.assignment_changed': envelopeOf('conversation.assignment_changed'),
  'conversation.tags_changed': envelopeOf('conversation.tags_changed'),
  'conversation.mailbox_changed': envelopeOf('conversation.mailbox_changed'),
  'note.created': envelopeOf('note.created'),
  'scheduled_message.sent': envelopeOf('scheduled_message.sent'),
  'scheduled_message.failed': envelopeOf('scheduled_message.failed'),
  'scheduled_message.cancelled': envelopeOf('scheduled_message.cancelled'),
  'action.failed': envelopeOf('action.failed'),
  'action_group.finished': envelopeOf('action_group.finished'),
  'contact.created': envelopeOf('contact.created'),
  'contact.updated': envelopeOf('contact.updated'),
  'contact.consent_changed': envelopeOf('contact.consent_changed'),
  'contact.erased': envelopeOf('contact.erased'),
  'broadcast.started': envelopeOf('broadcast.started'),
  'broadcast.paused': envelopeOf('broadcast.paused'),
  'broadcast.completed': envelopeOf('broadcast.completed'),
  ping: envelopeOf('ping'),
} as const satisfies { [Type in EventType]: z.ZodType };

export const EventEnvelopeSchema = z
  .discriminatedUnion('type', Object.values(EVENT_ENVELOPES) as unknown as [(typeof EVENT_ENVELOPES)[EventType], ...(typeof EVENT_ENVELOPES)[EventType][]])
  .openapi('EventEnvelope', {
    description: 'One event, as a webhook delivery carries it and GET /events answers it; `type` tells the shape of `data`.',
  });

export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
export type EventEnvelopeOf<Type extends EventType> = z.infer<(typeof EVENT_ENVELOPES)[Type]>;
export type EventDataOf<Type extends EventType> = z.infer<(typeof EVENT_DATA)[Type]>;
